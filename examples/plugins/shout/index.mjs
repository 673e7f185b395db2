// A Curate transformer plugin: an ES module exporting `transform(input, config)`. It runs isolated on the server
// (no Node APIs); `fetch` reaches only hosts its config names. See docs/plugins.md, "External plugins".

/**
 * Shouts the post: its content in capitals, with an optional suffix. With `enrichUrl` in its config it also adds
 * what that URL answers (JSON) as `enrichment`.
 */
export async function transform(input, config) {
  const content = typeof input?.content === "string" ? input.content : "";
  const output = { content: `${content.toUpperCase()}${config?.suffix ?? ""}` };
  if (config?.enrichUrl) {
    const response = await fetch(config.enrichUrl);
    if (!response.ok) throw new Error(`enrichment answered ${response.status}`);
    output.enrichment = await response.json();
  }
  return output;
}
