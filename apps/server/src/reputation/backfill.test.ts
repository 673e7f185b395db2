import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { backfillReputation } from "./backfill.ts";

let server: TestServer;
let sequence = 0;

interface OldDecision {
  curator: string;
  moderator: string;
  action: "approve" | "reject";
  source?: "ui" | "auto_approval";
  retraction?: boolean;
  undone?: boolean;
  /** Decides this earlier post again (a retraction) instead of a new one. */
  post?: string;
}

/** A post in feed "old" with its link; the link's status follows the decision. */
async function post(db: Database, curator: string, status: string) {
  const id = `old-${++sequence}`;
  await db.execute(sql`insert into submissions (tweet_id, user_id, username, content, curator_id, curator_username,
      created_at, submitted_at)
    values (${id}, 'u', 'author', 'Old post', ${`c-${curator}`}, ${curator}, timestamp '2025-06-01',
      timestamp '2025-06-01 01:00')`);
  await db.execute(sql`insert into submission_feeds (submission_id, feed_id, status, curator_id, curator_username,
      submitted_at)
    values (${id}, 'old', ${status}, ${`c-${curator}`}, ${curator}, timestamp '2025-06-01 01:00')`);
  return id;
}

/**
 * Decisions as they were written before reputation existed: the row triggers are bypassed, so nothing classifies
 * them and nothing counts them (as after migration 0024 on an existing database).
 */
async function writeBeforeReputation(decisions: OldDecision[]) {
  const ids: string[] = [];
  for (const decision of decisions) {
    const id =
      decision.post ??
      (await post(server.db, decision.curator, decision.action === "approve" ? "approved" : "rejected"));
    if (decision.post) {
      await server.db.execute(
        sql`update submission_feeds set status = 'rejected' where submission_id = ${id} and feed_id = 'old'`,
      );
    }
    await server.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into moderation_history (submission_id, feed_id, moderator_account_id,
          moderator_account_id_type, source, action, retraction, undone_at, created_at)
        values (${id}, 'old', ${decision.moderator}, 'near', ${decision.source ?? "ui"}, ${decision.action},
          ${decision.retraction ?? false}, ${decision.undone ? new Date("2025-06-01T02:00:00Z") : null},
          timestamp '2025-06-01 03:00')`);
    });
    ids.push(id);
  }
  return ids;
}

const curatorRows = () =>
  queryRows<{ curator: string; approved: number; rejected: number; retracted: number }>(
    server.db,
    sql`select curator_username as curator, approved_count as approved, rejected_count as rejected,
        retracted_count as retracted
      from curator_reputation where scope = 'old' order by curator_username`,
  );

const approverRows = () =>
  queryRows<{ moderator: string; decisions: number; overturned: number }>(
    server.db,
    sql`select moderator_account_id as moderator, decision_count as decisions, overturned_count as overturned
      from approver_reputation where scope = 'old' order by moderator_account_id`,
  );

const cursor = async () =>
  (
    await queryRows<{ cursor: number; done: boolean }>(
      server.db,
      sql`select cursor::int as cursor, done_at is not null as done from backfill_cursors where name = 'reputation'`,
    )
  )[0];

let annApprovals: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "old" });
  const repeat = (n: number, decision: OldDecision) => Array.from({ length: n }, () => ({ ...decision }));
  annApprovals = await writeBeforeReputation(
    repeat(6, { curator: "ann", moderator: "mod.near", action: "approve" }),
  );
  await writeBeforeReputation([
    ...repeat(2, { curator: "ann", moderator: "mod.near", action: "reject" }),
    // ann's auto-approvals: her own, never counted.
    ...repeat(3, {
      curator: "ann",
      moderator: "ann-account.near",
      action: "approve",
      source: "auto_approval",
    }),
  ]);
  const benApprovals = await writeBeforeReputation(
    repeat(4, { curator: "ben", moderator: "mod2.near", action: "approve" }),
  );
  // One of ben's approvals retracted back then; one of cat's two approvals undone inside its window.
  await writeBeforeReputation([
    { curator: "ben", moderator: "mod.near", action: "reject", retraction: true, post: benApprovals[0] },
    { curator: "cat", moderator: "mod.near", action: "approve" },
    { curator: "cat", moderator: "mod.near", action: "approve", undone: true },
    // Rejected by the account cat's handle is linked to: cat's own decision, never counted.
    { curator: "cat", moderator: "cat-owner.near", action: "reject" },
  ]);
  await server.db.execute(sql`with owner as (insert into users (near_account_id) values ('cat-owner.near') returning id)
    insert into linked_accounts (user_id, platform_name, platform_user_id, username)
    select id, 'twitter', '777', 'Cat' from owner`);
});

afterAll(() => server.close());

describe("reputation backfill", () => {
  it("leaves older decisions uncounted until it runs; new ones count at once", async () => {
    expect(await curatorRows()).toEqual([]);
    // Written after the migration, while the backfill has not run: a rejection of a new post of cat's, and a
    // retraction of one of ann's old approvals.
    const fresh = await post(server.db, "cat", "rejected");
    await server.db.execute(sql`insert into moderation_history (submission_id, feed_id, moderator_account_id,
        moderator_account_id_type, source, action) values (${fresh}, 'old', 'mod.near', 'near', 'ui', 'reject')`);
    await server.db.execute(
      sql`update submission_feeds set status = 'rejected' where submission_id = ${annApprovals[0]}`,
    );
    await server.db.execute(sql`insert into moderation_history (submission_id, feed_id, moderator_account_id,
        moderator_account_id_type, source, action, retraction)
      values (${annApprovals[0]}, 'old', 'mod.near', 'near', 'ui', 'reject', true)`);
    expect(await curatorRows()).toEqual([
      { curator: "ann", approved: 0, rejected: 1, retracted: 1 },
      { curator: "cat", approved: 0, rejected: 1, retracted: 0 },
    ]);
    expect(await cursor()).toBeUndefined();
  });

  it("stops when told and resumes from its cursor, counting nothing twice", async () => {
    const first = await backfillReputation(server.db, { chunk: 5, maxChunks: 2 });
    expect(first).toMatchObject({ done: false, chunks: 2 });
    const ids = await queryRows<{ id: number }>(
      server.db,
      sql`select id from moderation_history order by id`,
    );
    expect(first.cursor).toBe(ids[9].id);
    // Ann's six approvals (one since retracted) and the first four of her rejections and auto-approvals.
    expect((await curatorRows()).find((row) => row.curator === "ann")).toEqual({
      curator: "ann",
      approved: 5,
      rejected: 3,
      retracted: 1,
    });

    // A worker killed inside a chunk: its transaction rolls back, the cursor and the counts with it.
    await expect(
      server.db.transaction(async (tx) => {
        await tx.execute(sql`select curate_backfill_reputation(${first.cursor}, 5)`);
        throw new Error("worker killed");
      }),
    ).rejects.toThrow("worker killed");
    expect(await cursor()).toEqual({ cursor: first.cursor, done: false });

    const stopped = await backfillReputation(server.db, { chunk: 5, shouldContinue: () => false });
    expect(stopped).toEqual({ cursor: first.cursor, done: false, chunks: 0 });

    const rest = await backfillReputation(server.db, { chunk: 5 });
    expect(rest.done).toBe(true);
    expect(await cursor()).toMatchObject({ done: true });
    const expected = {
      curators: [
        { curator: "ann", approved: 5, rejected: 3, retracted: 1 },
        { curator: "ben", approved: 3, rejected: 1, retracted: 1 },
        { curator: "cat", approved: 1, rejected: 1, retracted: 0 },
      ],
      approvers: [
        { moderator: "mod.near", decisions: 12, overturned: 1 },
        { moderator: "mod2.near", decisions: 4, overturned: 1 },
      ],
    };
    expect({ curators: await curatorRows(), approvers: await approverRows() }).toEqual(expected);

    // Once done it does nothing, however often it is asked.
    expect(await backfillReputation(server.db, { chunk: 5 })).toMatchObject({ done: true, chunks: 0 });
    expect({ curators: await curatorRows(), approvers: await approverRows() }).toEqual(expected);
  });

  it("classifies what the triggers would have: curator, self-decisions, waits, overturned approvals", async () => {
    const rows = await queryRows<{ counted: number; self: number; unclassified: number; overturned: number }>(
      server.db,
      sql`select count(*) filter (where counts)::int as counted, count(*) filter (where not counts)::int as self,
          count(*) filter (where counts is null)::int as unclassified,
          count(*) filter (where overturned_at is not null)::int as overturned
        from moderation_history where feed_id = 'old'`,
    );
    expect(rows[0]).toEqual({ counted: 17, self: 4, unclassified: 0, overturned: 2 });
    const [wait] = await queryRows<{ wait: number }>(
      server.db,
      sql`select wait_seconds as wait from moderation_history where submission_id = ${annApprovals[1]}`,
    );
    expect(wait.wait).toBe(2 * 3600);
  });
});
