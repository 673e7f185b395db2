import type { TimeRange } from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { rollupCounted, rollupKept } from "../../test/rollups.ts";
import { queryRows } from "../db/sql.ts";

/**
 * Today, This Week and This Month over HTTP must answer what a count over the links themselves answers: a link is
 * in a range when it was submitted at or after the range's start (UTC midnight, Monday, the first of the month),
 * and its approval counts there whenever it was decided. The week is read from its own roll-up (docs/decisions/
 * 0035), the month from its roll-up, today from the daily rows: every answer is compared with the links, around
 * each boundary, after inserts, decisions, deletions, a deleted feed and a rebuild.
 */
let server: TestServer;

/** A Wednesday: the week began on Monday in the previous month, the month began yesterday. */
const NOW = new Date("2026-12-02T15:00:00.000Z");
const STARTS: Record<Exclude<TimeRange, "all">, string> = {
  today: "2026-12-02T00:00:00.000Z",
  week: "2026-11-30T00:00:00.000Z",
  month: "2026-12-01T00:00:00.000Z",
};
const RANGES = Object.keys(STARTS) as (keyof typeof STARTS)[];

const FEEDS = ["north", "south", "east"];
const CURATORS = ["ada", "bo", "cy", "di", "ed"];
const STATUSES = ["pending", "approved", "rejected"] as const;
/** Instants either side of each range's start, and the start itself. */
const TIMES = [
  "2026-11-23T00:00:00.000Z",
  "2026-11-29T23:59:59.999Z",
  "2026-11-30T00:00:00.000Z",
  "2026-11-30T23:59:59.999Z",
  "2026-12-01T00:00:00.000Z",
  "2026-12-01T23:59:59.999Z",
  "2026-12-02T00:00:00.000Z",
  "2026-12-02T14:59:59.000Z",
];

interface Entry {
  curator: string;
  n: number;
  approved: number;
  rejected: number;
  feeds: { feedId: string; count: number; totalInFeed: number }[];
}

/** The range's ranking counted from the links: curators by submissions, approvals, name; top ten feeds each. */
async function direct(range: keyof typeof STARTS, feedId?: string): Promise<Entry[]> {
  const since = STARTS[range];
  const feedFilter = feedId ? sql` and feed_id = ${feedId}` : sql``;
  const curators = await queryRows<Omit<Entry, "feeds">>(
    server.db,
    sql`select curator_username as curator, count(*)::int as n,
        (count(*) filter (where status = 'approved'))::int as approved,
        (count(*) filter (where status = 'rejected'))::int as rejected
      from submission_feeds where curator_username is not null and submitted_at >= ${since}${feedFilter}
      group by curator_username order by n desc, approved desc, curator_username`,
  );
  const perFeed = await queryRows<{ curator: string; feedId: string; count: number; totalInFeed: number }>(
    server.db,
    sql`with links as (
        select * from submission_feeds
        where curator_username is not null and submitted_at >= ${since}${feedFilter}
      )
      select l.curator_username as curator, l.feed_id as "feedId", count(*)::int as count,
        (select count(*)::int from links t where t.feed_id = l.feed_id) as "totalInFeed"
      from links l group by l.curator_username, l.feed_id order by count desc, l.feed_id`,
  );
  return curators.map((c) => ({
    ...c,
    feeds: perFeed
      .filter((f) => f.curator === c.curator)
      .map(({ feedId: id, count, totalInFeed }) => ({ feedId: id, count, totalInFeed })),
  }));
}

async function answered(range: keyof typeof STARTS, feedId?: string): Promise<Entry[]> {
  const { status, body } = await server.json(
    `/api/leaderboard?timeRange=${range}&limit=100${feedId ? `&feedId=${feedId}` : ""}`,
  );
  expect(status).toBe(200);
  return body.data.map(
    (e: {
      curatorUsername: string;
      submissionCount: number;
      approvalCount: number;
      rejectionCount: number;
      feedSubmissions: Entry["feeds"];
    }) => ({
      curator: e.curatorUsername,
      n: e.submissionCount,
      approved: e.approvalCount,
      rejected: e.rejectionCount,
      feeds: e.feedSubmissions,
    }),
  );
}

async function expectEveryRangeAsCounted() {
  for (const range of RANGES) {
    for (const feedId of [undefined, ...FEEDS]) {
      const counted = await direct(range, feedId);
      expect(await answered(range, feedId), `${range}${feedId ? ` in ${feedId}` : ""}`).toEqual(counted);
    }
  }
}

beforeAll(async () => {
  server = await startTestServer();
  for (const id of FEEDS) await insertFeed(server.db, { id });
  // A fixed spread of posts: each in one to three feeds, each link with its own curator and status.
  for (let i = 0; i < 72; i++) {
    const feedCount = 1 + (i % 3);
    await insertSubmission(server.db, {
      tweetId: `w${i}`,
      curatorUsername: CURATORS[i % CURATORS.length],
      submittedAt: new Date(TIMES[(i * 5) % TIMES.length]),
      feeds: Array.from({ length: feedCount }, (_, k) => ({
        feedId: FEEDS[(i + k) % FEEDS.length],
        status: STATUSES[(i * 7 + k) % STATUSES.length],
        curatorUsername: CURATORS[(i + k * 2) % CURATORS.length],
      })),
    });
  }
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => server.close());

describe("today, this week and this month", () => {
  it("hold the links submitted from each range's start, the start itself included", async () => {
    // The answers depend on the day: the server's clock is the test's.
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const weekStart = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from submission_feeds where submitted_at = ${STARTS.week}`,
    );
    expect(weekStart[0].n).toBeGreaterThan(0);
    // Each range holds links the next shorter one does not, and the week holds November's last day.
    const sizes = await Promise.all(
      RANGES.map(async (range) => (await direct(range)).reduce((sum, e) => sum + e.n, 0)),
    );
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[1]).toBeGreaterThan(sizes[2]);
    expect(sizes[2]).toBeGreaterThan(sizes[0]);
    await expectEveryRangeAsCounted();
    expect(await rollupKept(server.db, "week")).toEqual(await rollupCounted(server.db, "week"));
  });

  it("count a decision in the week of its submission, whenever it is made", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const before = new Map((await answered("week")).map((e) => [e.curator, e.approved]));
    const [link] = await queryRows<{ id: string; feed: string; curator: string }>(
      server.db,
      sql`select submission_id as id, feed_id as feed, curator_username as curator from submission_feeds
        where status = 'pending' and submitted_at = '2026-11-29T23:59:59.999Z' limit 1`,
    );
    // Approved this week, submitted the week before: last week's approval, not this week's.
    await server.db.execute(sql`update submission_feeds set status = 'approved'
      where submission_id = ${link.id} and feed_id = ${link.feed}`);
    expect(new Map((await answered("week")).map((e) => [e.curator, e.approved]))).toEqual(before);
    const [inWeek] = await queryRows<{ id: string; feed: string; curator: string }>(
      server.db,
      sql`select submission_id as id, feed_id as feed, curator_username as curator from submission_feeds
        where status = 'pending' and submitted_at = ${STARTS.week} limit 1`,
    );
    await server.db.execute(sql`update submission_feeds set status = 'approved'
      where submission_id = ${inWeek.id} and feed_id = ${inWeek.feed}`);
    const after = new Map((await answered("week")).map((e) => [e.curator, e.approved]));
    expect(after.get(inWeek.curator)).toBe((before.get(inWeek.curator) ?? 0) + 1);
    await expectEveryRangeAsCounted();
  });

  it("stay as counted through decisions, deleted links and a deleted feed", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    await server.db.execute(sql`update submission_feeds set status = 'approved'
      where status = 'pending' and submission_id in ('w1', 'w2', 'w3', 'w10', 'w11')`);
    await server.db.execute(sql`update submission_feeds set status = 'rejected'
      where status = 'approved' and submission_id in ('w4', 'w5', 'w20')`);
    await server.db.execute(
      sql`delete from submission_feeds where submission_id in ('w6', 'w7') and feed_id = 'north'`,
    );
    await server.db.execute(sql`delete from submissions where tweet_id in ('w8', 'w30')`);
    expect(await rollupKept(server.db, "week")).toEqual(await rollupCounted(server.db, "week"));
    await expectEveryRangeAsCounted();

    await server.db.execute(sql`delete from feeds where id = 'south'`);
    const weeks = await rollupCounted(server.db, "week");
    expect(weeks.some((r) => r.scope === "south")).toBe(false);
    expect(await rollupKept(server.db, "week")).toEqual(weeks);
    for (const range of RANGES) expect(await answered(range), range).toEqual(await direct(range));
  });

  it("are rebuilt to the same answers by curate_rebuild_stats()", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const kept = await rollupKept(server.db, "week");
    const answers = await Promise.all(RANGES.map((range) => answered(range)));
    await server.db.execute(sql`select curate_rebuild_stats()`);
    expect(await rollupKept(server.db, "week")).toEqual(kept);
    expect(await Promise.all(RANGES.map((range) => answered(range)))).toEqual(answers);
  });
});
