import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { rollupCounted, rollupKept } from "../../test/rollups.ts";
import { queryRows } from "../db/sql.ts";
import { getLeaderboard } from "./service.ts";

/**
 * The monthly roll-up behind This Month (docs/decisions/0004) is kept by the link triggers, whoever writes: after
 * inserts across month boundaries, status changes, deleted links and a deleted feed, every kept row must equal a
 * direct count over the links, and nothing may be kept that the links do not hold.
 */
let server: TestServer;

const FEEDS = ["north", "south", "east"];
const CURATORS = ["ada", "bo", "cy", "di"];
const STATUSES = ["pending", "approved", "rejected"] as const;
/** Instants either side of month boundaries (UTC), so a link's month is decided by its UTC day. */
const TIMES = [
  "2026-09-30T23:59:59.999Z",
  "2026-10-01T00:00:00.000Z",
  "2026-10-15T12:00:00.000Z",
  "2026-10-31T23:59:59.999Z",
  "2026-11-01T00:00:00.000Z",
  "2026-11-18T09:00:00.000Z",
];

beforeAll(async () => {
  server = await startTestServer();
  for (const id of FEEDS) await insertFeed(server.db, { id });
  // A fixed spread of posts: each in one to three feeds, each link with its own curator and status.
  for (let i = 0; i < 60; i++) {
    const feedCount = 1 + (i % 3);
    await insertSubmission(server.db, {
      tweetId: `m${i}`,
      curatorUsername: CURATORS[i % CURATORS.length],
      submittedAt: new Date(TIMES[(i * 7) % TIMES.length]),
      feeds: Array.from({ length: feedCount }, (_, k) => ({
        feedId: FEEDS[(i + k) % FEEDS.length],
        status: STATUSES[(i * 5 + k) % STATUSES.length],
        curatorUsername: CURATORS[(i + k * 3) % CURATORS.length],
      })),
    });
  }
});

afterAll(() => server.close());

describe("the monthly roll-up", () => {
  it("equals the raw counts after inserts across month boundaries", async () => {
    const raw = await rollupCounted(server.db, "month");
    expect(raw.length).toBeGreaterThan(20);
    expect(new Set(raw.map((r) => r.period))).toEqual(new Set(["2026-09-01", "2026-10-01", "2026-11-01"]));
    expect(await rollupKept(server.db, "month")).toEqual(raw);
  });

  it("stays equal through status changes, deleted links and a deleted feed", async () => {
    await server.db.execute(sql`update submission_feeds set status = 'approved'
      where status = 'pending' and submission_id in ('m1', 'm2', 'm3', 'm10', 'm11')`);
    await server.db.execute(sql`update submission_feeds set status = 'rejected'
      where status = 'approved' and submission_id in ('m4', 'm5', 'm20')`);
    await server.db.execute(
      sql`delete from submission_feeds where submission_id in ('m6', 'm7') and feed_id = 'north'`,
    );
    await server.db.execute(sql`delete from submissions where tweet_id in ('m8', 'm30')`);
    expect(await rollupKept(server.db, "month")).toEqual(await rollupCounted(server.db, "month"));

    await server.db.execute(sql`delete from feeds where id = 'south'`);
    const raw = await rollupCounted(server.db, "month");
    expect(raw.some((r) => r.scope === "south")).toBe(false);
    expect(await rollupKept(server.db, "month")).toEqual(raw);
  });

  it("is what This Month ranks: the leaderboard's month equals a count over that month's links", async () => {
    const now = new Date("2026-10-20T08:00:00Z");
    const direct = await queryRows<{ curator: string; n: number; approved: number }>(
      server.db,
      sql`select curator_username as curator, count(*)::int as n,
          (count(*) filter (where status = 'approved'))::int as approved
        from submission_feeds
        where submitted_at >= '2026-10-01T00:00:00Z' and submitted_at < '2026-11-01T00:00:00Z'
        group by curator_username order by n desc, approved desc, curator_username`,
    );
    expect(direct.length).toBeGreaterThan(1);
    const kept = await getLeaderboard(server.db, { timeRange: "month", limit: 100 }, now);
    expect(
      kept.map((e) => ({ curator: e.curatorUsername, n: e.submissionCount, approved: e.approvalCount })),
    ).toEqual(direct);
    // Each row's feeds and their month totals come from the same roll-up.
    const totals = await queryRows<{ feed: string; n: number }>(
      server.db,
      sql`select feed_id as feed, count(*)::int as n from submission_feeds
        where submitted_at >= '2026-10-01T00:00:00Z' and submitted_at < '2026-11-01T00:00:00Z' group by feed_id`,
    );
    const totalByFeed = new Map(totals.map((t) => [t.feed, t.n]));
    for (const entry of kept) {
      expect(entry.feedSubmissions.reduce((sum, f) => sum + f.count, 0)).toBe(entry.submissionCount);
      for (const f of entry.feedSubmissions) expect(f.totalInFeed).toBe(totalByFeed.get(f.feedId));
    }
    const north = await getLeaderboard(server.db, { timeRange: "month", feedId: "north", limit: 100 }, now);
    expect(north.reduce((sum, e) => sum + e.submissionCount, 0)).toBe(totalByFeed.get("north"));
  });

  it("is rebuilt to the same rows by curate_rebuild_stats()", async () => {
    const before = await rollupKept(server.db, "month");
    await server.db.execute(sql`select curate_rebuild_stats()`);
    expect(await rollupKept(server.db, "month")).toEqual(before);
  });
});
