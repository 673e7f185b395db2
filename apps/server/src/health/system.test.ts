import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.ts";

let server: TestServer;
const webDist = mkdtempSync(join(tmpdir(), "curate-dist-"));

beforeAll(async () => {
  mkdirSync(join(webDist, "assets"));
  writeFileSync(
    join(webDist, "index.html"),
    '<!doctype html><title>Curate</title><div id=root></div><script type="module" src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(webDist, "assets", "index-abc123.js"), "console.log('app')");
  writeFileSync(join(webDist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  server = await startTestServer({
    WEB_DIST_DIR: webDist,
    BOT_HANDLE: "@curatebot",
    TELEGRAM_BOT_TOKEN: "123456:very-secret-value",
    PLUGIN_SECRETS: "TELEGRAM_BOT_TOKEN,UNSET_NAME",
    PGPASSWORD: "db-password",
  });
  mkdirSync(join(server.env.DATA_DIR, "uploads"), { recursive: true });
  writeFileSync(join(server.env.DATA_DIR, "uploads", "abc.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  writeFileSync(join(server.env.DATA_DIR, "session-secret-copy"), "PRIVATE-BYTES-42");
});

afterAll(() => server.close());

describe("system routes", () => {
  it("GET /api/health reports the database reachable and the version", async () => {
    const { status, body } = await server.json("/api/health");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      statusCode: 200,
      data: { status: "ok", database: { reachable: true }, version: "test" },
    });
    expect(["pglite", "postgres"]).toContain(body.data.database.driver);
  });

  it("GET /api/health is a 503 envelope when the database is gone", async () => {
    const broken = await startTestServer();
    try {
      await broken.database.close();
      const { status, body } = await broken.json("/api/health");
      expect(status).toBe(503);
      expect(body.error.code).toBe("UNAVAILABLE");
      const list = await broken.json("/api/feeds");
      expect(list.status).toBe(503);
      expect(JSON.stringify(list.body)).not.toMatch(/select|stack/i);
    } finally {
      await broken.close();
    }
  });

  it("GET /api/config exposes the bot handle, environment, this deployment's address and the placeholder names it can fill, never values", async () => {
    const { body } = await server.json("/api/config");
    expect(body.data).toEqual({
      botHandle: "curatebot",
      environment: "test",
      devTools: true,
      version: "test",
      publicUrl: server.env.PUBLIC_URL,
      imageUpload: "local",
      placeholders: ["TELEGRAM_BOT_TOKEN"],
      rssHosts: [new URL(server.env.PUBLIC_URL).host],
      pluginHosts: [],
      crosspostUrl: server.env.CROSSPOST_API_URL,
      networks: [{ platform: "twitter", handle: "curatebot" }],
    });
    expect(JSON.stringify(body)).not.toMatch(/very-secret-value|db-password/);
  });

  it("serves the OpenAPI document and the human docs", async () => {
    const { status, body } = await server.json("/api/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    for (const path of [
      "/health",
      "/feeds",
      "/feeds/{id}",
      "/submissions",
      "/submissions/feed/{feedId}",
      "/submissions/single/{tweetId}",
      "/leaderboard",
    ]) {
      expect(Object.keys(body.paths)).toContain(path);
    }
    const params = body.paths["/submissions"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(["page", "limit", "status", "sortOrder", "q"]));
    const docs = await server.request("/api/docs");
    expect(docs.headers.get("content-type")).toContain("text/html");
    expect(await docs.text()).toContain("Curate API");
  });

  it("answers unknown API paths with a 404 envelope, not the app", async () => {
    const { status, body } = await server.json("/api/nothing/here");
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  });

  it("serves the SPA with index.html fallback and long-lived caching for hashed assets", async () => {
    const deep = await server.request("/feed/ai/curation?status=approved");
    expect(deep.status).toBe(200);
    expect(deep.headers.get("x-content-type-options")).toBe("nosniff");
    expect(deep.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
    expect(deep.headers.get("cache-control")).toBe("no-store");
    const html = await deep.text();
    expect(html).toContain("<div id=root>");
    // Scripts only from this origin or with this page's nonce; every page gets a fresh one.
    const nonce = html.match(/<script nonce="([^"]+)" type="module"/)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    const policy = deep.headers.get("content-security-policy") ?? "";
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(policy).toMatch(/object-src 'none'.*frame-ancestors 'none'/);
    expect(policy).not.toMatch(/unsafe-inline'[^;]*script|script-src[^;]*unsafe/);
    // The deployment's own RSS and uploads live at PUBLIC_URL, which may be plain http in development: a page
    // opened under another host name still reads them.
    const publicOrigin = new URL(server.env.PUBLIC_URL).origin;
    expect(policy).toMatch(new RegExp(`connect-src [^;]*${publicOrigin.replace(/[.:/]/g, "\\$&")}`));
    expect(policy).toMatch(new RegExp(`img-src [^;]*${publicOrigin.replace(/[.:/]/g, "\\$&")}`));
    const again = await (await server.request("/")).text();
    expect(again).not.toContain(nonce);
    const asset = await server.request("/assets/index-abc123.js");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-type")).toContain("text/javascript");
    const missingFeed = await server.request("/rss/ai/rss.xml");
    expect(missingFeed.status).toBe(404);
    expect(missingFeed.headers.get("content-type")).not.toContain("html");
    const staleAsset = await server.request("/assets/index-old999.js");
    expect(staleAsset.status).toBe(404);
    const icon = await server.request("/favicon.svg");
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).not.toContain("immutable");
  });

  it("serves uploads and refuses paths that escape their folder", async () => {
    const upload = await server.request("/uploads/abc.svg");
    expect(upload.status).toBe(200);
    expect(upload.headers.get("cache-control")).toContain("immutable");
    expect((await server.request("/uploads/missing.png")).status).toBe(404);
    const escaped = await server.request("/uploads/..%2Fsession-secret-copy");
    expect(escaped.status).toBe(404);
    expect(await escaped.text()).not.toContain("PRIVATE-BYTES-42");
    // fetch itself folds an encoded "/.." away, so this one only reaches the app, never the file.
    const folded = await server.request("/uploads/%2e%2e/session-secret-copy");
    expect(await folded.text()).not.toContain("PRIVATE-BYTES-42");
  });
});
