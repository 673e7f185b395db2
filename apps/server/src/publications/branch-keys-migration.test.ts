import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { branchKeys } from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchDatabase, type ScratchDatabase } from "../../test/databases.ts";
import { migrateTo, migrationsBefore } from "../../test/migrations.ts";
import { queryRows } from "../db/sql.ts";

/**
 * The branch-keys migration over rows written before it: every distribution step and ledger entry gets the key
 * core's `branchKeys` gives its plan's branch today, so a re-run of a job from before finds the live publication
 * of its branch. The database is migrated up to the migration before, seeded as that schema held rows, then
 * migrated to the end, on the driver under test.
 */
const work = mkdtempSync(join(tmpdir(), "curate-branch-keys-migration-"));
let scratch: ScratchDatabase;

/** Distributors as feeds wrote them, the awkward spellings included. */
const distributors = [
  { plugin: "@curatedotfun/telegram", config: { botToken: "{{TG}}", channelId: "-1001234567890" } },
  { plugin: "@curate/telegram", config: { botToken: "{{TG}}", chatId: -1001234567890, messageThreadId: 7 } },
  { plugin: "@curate/telegram", config: { botToken: "{{TG}}", chatId: " @curate_news ", parseMode: "HTML" } },
  { plugin: "discord", config: { webhookUrl: "{{DISCORD_WEBHOOK}}", threadId: "1270000000000000003" } },
  {
    plugin: "@curate/discord",
    config: { botToken: "{{BOT}}", channelId: "1270000000000000004", embed: false },
  },
  {
    plugin: "@curate/notion",
    config: { token: "{{N}}", databaseId: "B7C1E2F4-A9D8-4C3E-8F2A-61D0C5E7B913" },
  },
  {
    plugin: "@curate/supabase",
    config: { supabaseUrl: "https://abcd.supabase.co", key: "{{SB}}", tableName: "posts" },
  },
  {
    plugin: "@curate/supabase",
    config: { url: "https://abcd.supabase.co", schema: "media", table: "a|b%c" },
  },
  { plugin: "@curate/near-social", config: { accountId: "curate.near", privateKey: "{{K}}" } },
  {
    plugin: "@curate/crosspost",
    config: {
      signerId: "curate.near",
      keyPair: "{{K}}",
      targets: [{ platform: "Twitter", userId: "42" }, {}],
    },
  },
  { plugin: "@curate/webhook", config: { url: "https://hooks.example.com/in?x=1", secret: "{{H}}" } },
  { plugin: "@curate/webhook", config: { url: "https://hooks.example.com/in?x=1", secret: "{{H2}}" } },
  { plugin: "@curate/rss", config: {} },
  { plugin: "@curate/rss", config: { serviceUrl: "https://rss.example.com" } },
  { plugin: "@acme/poster", config: { board: "a" } },
  { plugin: "@acme/poster", config: { board: "b" } },
  { plugin: "@curate/webhook" },
];

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  scratch = await openScratchDatabase(url ? "postgres" : "pglite", url ? { adminUrl: url } : {});
  const { db } = scratch.handle;
  await migrateTo(scratch.handle, migrationsBefore(work, "_ledger_branch_keys"));

  // Written as SQL: these are the rows as the schema before the migration held them.
  await db.execute(
    sql`insert into feeds (id, name, config, created_by) values ('legacy', 'Legacy', '{}', 'x.near')`,
  );
  await db.execute(sql`insert into submissions (tweet_id, user_id, username, content, curator_id,
      curator_username, curator_tweet_id, created_at, submitted_at)
    values ('1', '1', 'alice', 'A post', '2', 'bob', '3', now(), now())`);
  const plan = {
    transforms: [],
    branches: distributors.map((distributor, index) => ({ index, transforms: [], distributor })),
    entries: [],
  };
  await db.execute(sql`insert into processing_jobs (id, kind, submission_id, feed_id, status, idempotency_key, plan)
    values ('job-1', 'approval', '1', 'legacy', 'completed', 'job-1', ${JSON.stringify(plan)}::jsonb),
      ('job-2', 'retraction', '1', 'legacy', 'completed', 'job-2', '{"transforms":[],"branches":[],"entries":[]}')`);
  for (const [index, distributor] of distributors.entries()) {
    await db.execute(sql`insert into processing_steps (id, job_id, step_order, type, stage, branch, plugin_name,
        config, status)
      values (${`step-${index}`}, 'job-1', ${index + 1}, 'distribution', 'distributor', ${index},
        ${distributor.plugin}, ${JSON.stringify(distributor.config ?? null)}::jsonb, 'success')`);
    await db.execute(sql`insert into publications (id, submission_id, feed_id, job_id, step_id, branch, plugin_name,
        config, reference_kind)
      values (${`publication-${index}`}, '1', 'legacy', 'job-1', ${`step-${index}`}, ${index},
        ${distributor.plugin}, ${JSON.stringify(distributor.config ?? null)}::jsonb, 'test')`);
  }
  // A retraction's step is no branch of a plan; an entry whose step is gone is keyed from its own config.
  await db.execute(sql`insert into processing_steps (id, job_id, step_order, type, stage, branch, plugin_name)
    values ('retract-0', 'job-2', 1, 'retraction', 'distributor', 0, '@curate/telegram')`);
  await db.execute(sql`insert into publications (id, submission_id, feed_id, job_id, step_id, branch, plugin_name,
      config, reference_kind)
    values ('orphan', '1', 'legacy', 'job-1', 'gone', 3, '@curate/notion',
      '{"databaseId": "b7c1e2f4-a9d8-4c3e-8f2a-61d0c5e7b913"}', 'notion-page')`);

  await scratch.handle.migrate();
});

afterAll(async () => {
  await scratch?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("the branch-keys migration", () => {
  it("keys every step and ledger entry as branchKeys keys its plan's branch today", async () => {
    const expected = branchKeys(distributors);
    const steps = await queryRows<{ id: string; key: string | null }>(
      scratch.handle.db,
      sql`select id, branch_key as key from processing_steps where job_id = 'job-1' order by step_order`,
    );
    expect(steps.map((step) => step.key)).toEqual(expected);
    const entries = await queryRows<{ id: string; key: string }>(
      scratch.handle.db,
      sql`select id, branch_key as key from publications where id like 'publication-%' order by branch`,
    );
    expect(entries.map((entry) => entry.key)).toEqual(expected);
    // The keys say what they stand for; entries sharing one are told apart by their order.
    expect(expected.slice(0, 4)).toEqual([
      "@curate/telegram|-1001234567890|",
      "@curate/telegram|-1001234567890|7",
      "@curate/telegram|@curate_news|",
      "@curate/discord|webhook|{{DISCORD_WEBHOOK}}|1270000000000000003",
    ]);
    expect(expected[7]).toBe("@curate/supabase|https://abcd.supabase.co|media|a%7Cb%25c");
    expect(expected.slice(10)).toEqual([
      "@curate/webhook|https://hooks.example.com/in?x=1",
      "@curate/webhook|https://hooks.example.com/in?x=1#2",
      "@curate/rss|",
      "@curate/rss|https://rss.example.com",
      "@acme/poster",
      "@acme/poster#2",
      "@curate/webhook|",
    ]);
  });

  it("keys a retraction's steps not at all, and an entry without its step from its own config", async () => {
    const [retraction] = await queryRows<{ key: string | null }>(
      scratch.handle.db,
      sql`select branch_key as key from processing_steps where id = 'retract-0'`,
    );
    expect(retraction.key).toBeNull();
    const [orphan] = await queryRows<{ key: string }>(
      scratch.handle.db,
      sql`select branch_key as key from publications where id = 'orphan'`,
    );
    expect(orphan.key).toBe(
      branchKeys([
        { plugin: "@curate/notion", config: { databaseId: "b7c1e2f4a9d84c3e8f2a61d0c5e7b913" } },
      ])[0],
    );
  });
});
