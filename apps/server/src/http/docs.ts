/** A self-contained API reference page (no third-party scripts), rendered from /api/openapi.json. */
export const API_DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Curate API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#fafafa}
main{max-width:920px;margin:0 auto;padding:32px 20px}
h1{margin:0 0 4px}p.lead{color:#555;margin:0 0 24px}
section{background:#fff;border:1px solid #e5e5e5;border-radius:8px;margin:0 0 12px;padding:14px 16px}
.m{display:inline-block;min-width:60px;font:600 12px ui-monospace,monospace;padding:2px 8px;border-radius:4px;background:#eef;color:#223}
.m.post{background:#e8f6ec}.m.put,.m.patch{background:#fff4e0}.m.delete{background:#fde8e8}
code{font:13px ui-monospace,monospace}small{color:#555}ul{margin:6px 0 0 18px;padding:0}
</style></head><body><main><h1>Curate API</h1>
<p class="lead">Every response uses the envelope <code>{success, statusCode, timestamp, data | error}</code>.
Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p><div id="ops">Loading…</div></main>
<script>
fetch("/api/openapi.json").then(r=>r.json()).then(doc=>{
  const box=document.getElementById("ops");box.textContent="";
  for(const [path,ops] of Object.entries(doc.paths||{}))for(const [method,op] of Object.entries(ops)){
    const s=document.createElement("section");
    const params=(op.parameters||[]).map(p=>"<li><code>"+p.name+"</code> <small>("+p.in+(p.required?", required":"")+")</small></li>").join("");
    const codes=Object.keys(op.responses||{}).join(", ");
    s.innerHTML="<span class='m "+method+"'>"+method.toUpperCase()+"</span> <code>"+path+"</code><div>"+(op.summary||"")+"</div>"+(params?"<ul>"+params+"</ul>":"")+"<small>Responses: "+codes+"</small>";
    box.appendChild(s);
  }
});
</script></body></html>`;
