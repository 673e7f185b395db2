import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { queryRows } from "../db/sql.ts";
import { seedDemoData } from "./demo.ts";

let server: TestServer;
let uploadsDir: string;

/** Waits until the worker has run every processing request. */
async function allJobsFinished(timeoutMs: number) {
  const started = Date.now();
  for (;;) {
    const [{ open }] = await queryRows<{ open: number }>(
      server.db,
      sql`select count(*)::int as open from processing_jobs where status in ('pending', 'processing')`,
    );
    if (open === 0) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${open} processing jobs still open`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  server = await startTestServer({}, { worker: {} });
  uploadsDir = join(mkdtempSync(join(tmpdir(), "curate-seed-")), "uploads");
  await seedDemoData(server.db, { uploadsDir, publicUrl: server.env.PUBLIC_URL });
  await allJobsFinished(90_000);
});

afterAll(async () => {
  await server?.close();
  if (uploadsDir) rmSync(join(uploadsDir, ".."), { recursive: true, force: true });
});

describe("the demo data", () => {
  it("publishes every approval of a feed with a live stream through the pipeline to the feed's RSS", async () => {
    const { body } = await server.json("/api/feeds");
    const live = (body.data as Array<{ id: string }>).filter((feed) => feed.id !== "all");
    const parser = new XMLParser({ isArray: (name) => name === "item" });
    let published = 0;
    for (const feed of live) {
      const { config } = (await server.json(`/api/feeds/${feed.id}`)).body.data;
      const approved = (await server.json(`/api/submissions/feed/${feed.id}?status=approved&limit=1`)).body
        .data.pagination.totalCount as number;
      const response = await server.request(`/rss/${feed.id}/rss.xml`);
      expect(response.status, feed.id).toBe(200);
      const items = parser.parse(await response.text()).rss.channel.item ?? [];
      if (!config.outputs.stream.enabled) continue;
      // The seeded history's few jobs from before a feed dropped its AI step fail (no key) and publish nothing.
      const [{ failed }] = await queryRows<{ failed: number }>(
        server.db,
        sql`select count(*)::int as failed from processing_jobs where feed_id = ${feed.id} and status = 'failed'`,
      );
      expect(items.length, feed.id).toBe(approved - failed);
      published += items.length;
    }
    expect(published).toBeGreaterThan(100);
  });

  it("titles each item with the network its post is on, or the blog's site, never X for another network", async () => {
    const { body } = await server.json("/api/feeds");
    const parser = new XMLParser({ isArray: (name) => name === "item" });
    const items: Array<{ title: string; link?: string }> = [];
    for (const feed of body.data as Array<{ id: string }>) {
      const response = await server.request(`/rss/${feed.id}/rss.xml`);
      if (response.status === 200)
        items.push(...(parser.parse(await response.text()).rss.channel.item ?? []));
    }
    const places = new Set<string>();
    for (const { title, link } of items) {
      // "{{author}} on {{network}}: …", or "{{author}} on {{network}}" in the few jobs of an earlier plan.
      const place = /^.+? on (.+?)(?:: |$)/.exec(title)?.[1];
      expect(place, title).toBeDefined();
      places.add(place as string);
      expect(place === "X", `${title} (${link})`).toBe(
        link !== undefined && new URL(link).hostname === "x.com",
      );
    }
    expect([...places]).toEqual(expect.arrayContaining(["X", "Bluesky", "Mastodon"]));
    // Blog posts name their site.
    expect([...places].some((place) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(place))).toBe(true);
  });
});
