import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { migrateTo, migrationsBefore } from "../../test/migrations.ts";
import { MIGRATIONS_FOLDER } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { buildDemoPlan, DEMO_ITEM_TITLE } from "./plan.ts";

/**
 * Migration 0026 over feeds as the seed before it wrote them (decision 0032): demo feeds nobody saved since seeding
 * take the `{{network}}` title and the author's own page; every other feed keeps its templates.
 */
const work = mkdtempSync(join(tmpdir(), "curate-demo-templates-"));
let scratch: ScratchDatabase;

const OLD_TITLE = "{{author}} on X: {{content | truncate:80}}";
const OLD_AUTHOR = { name: "{{author}}", link: "https://x.com/{{author}}" };
const RSS_MAPPING = ["outputs", "stream", "distribute", "0", "transform", "0", "config", "mappings"];

/** A demo feed's config as the earlier seed wrote it, from today's plan with its two old templates put back. */
function seededBefore(feedId: string, title = OLD_TITLE) {
  const plan = buildDemoPlan({
    now: new Date("2026-11-01T00:00:00Z"),
    publicUrl: "http://127.0.0.1:3000",
    botHandle: "bot",
  });
  const feed = plan.feeds.find((candidate) => candidate.id === feedId);
  if (!feed) throw new Error(`no demo feed ${feedId}`);
  const config = structuredClone(feed.config) as Record<string, unknown>;
  const mappings = RSS_MAPPING.reduce<Record<string, unknown>>(
    (node, key) => node[key] as Record<string, unknown>,
    config,
  );
  expect(mappings.title).toBe(DEMO_ITEM_TITLE);
  mappings.title = title;
  mappings.author = OLD_AUTHOR;
  return config;
}

async function insertFeed(id: string, config: Record<string, unknown>, savedVersions = 0) {
  const { db } = scratch.handle;
  await db.execute(sql`insert into feeds (id, name, description, created_by, config)
    values (${id}, ${id}, ${`About ${id}`}, 'owner.near', ${JSON.stringify({ ...config, id })}::jsonb)`);
  for (let version = 1; version <= savedVersions; version++) {
    await db.execute(sql`insert into feed_config_versions (feed_id, version, config, kind)
      values (${id}, ${version}, ${JSON.stringify(config)}::jsonb, ${version === 1 ? "created" : "saved"})`);
  }
}

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  scratch = await openScratchDatabase(url ? "postgres" : "pglite", url ? { adminUrl: url } : {});
  await migrateTo(scratch.handle, migrationsBefore(work, "_demo_templates_name_network"));
  // As seeded, never saved since: rewritten.
  await insertFeed("climatetech", seededBefore("climatetech"));
  // Saved in the editor since seeding (even with the same templates): its owner's now, left alone.
  await insertFeed("design", seededBefore("design"), 2);
  // Its owner's own title (written by an import or by hand, without a version): not as seeded, left alone.
  await insertFeed("devtools", seededBefore("devtools", "{{author}} on X says: {{content}}"));
  // Someone else's feed that copied the demo's templates: not a demo feed, left alone.
  await insertFeed("mine", seededBefore("gaming"));
  await migrateTo(scratch.handle, MIGRATIONS_FOLDER);
});

afterAll(async () => {
  await scratch?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("demo templates name each post's network", () => {
  it("rewrites demo feeds not edited since seeding, and no other feed's templates", async () => {
    const rows = await queryRows<{ id: string; title: string; link: string }>(
      scratch.handle.db,
      sql`select id, config #>> ${`{${RSS_MAPPING.join(",")},title}`} as title,
          config #>> ${`{${RSS_MAPPING.join(",")},author,link}`} as link
        from feeds order by id`,
    );
    expect(rows).toEqual([
      { id: "climatetech", title: DEMO_ITEM_TITLE, link: "{{authorUrl}}" },
      { id: "design", title: OLD_TITLE, link: OLD_AUTHOR.link },
      { id: "devtools", title: "{{author}} on X says: {{content}}", link: OLD_AUTHOR.link },
      { id: "mine", title: OLD_TITLE, link: OLD_AUTHOR.link },
    ]);
  });
});
