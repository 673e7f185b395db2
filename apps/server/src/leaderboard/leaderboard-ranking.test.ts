import type { LeaderboardEntry } from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { queryRows } from "../db/sql.ts";
import { getLeaderboard, timeRangeStart } from "./service.ts";

/** Wednesday: today starts 18 Nov, the week Monday 16 Nov, the month 1 Nov (UTC). */
const NOW = new Date("2026-11-18T15:30:00Z");
let server: TestServer;

/** [curator, feed, status, submittedAt] — one row per feed link; a post in two feeds is two rows. */
const LINKS = [
  ["alice", "a", "approved", "2026-11-18T10:00:00.000Z", "s1"],
  ["alice", "b", "rejected", "2026-11-18T10:00:00.000Z", "s1"],
  ["alice", "a", "approved", "2026-11-16T00:00:00.000Z", "s2"],
  ["alice", "c", "pending", "2026-10-31T23:59:59.999Z", "s3"],
  ["bob", "a", "pending", "2026-11-17T23:59:59.999Z", "s4"],
  ["bob", "a", "rejected", "2026-11-01T00:00:00.000Z", "s5"],
  ["bob", "b", "pending", "2026-11-15T23:59:59.999Z", "s6"],
  ["bob", "c", "approved", "2026-11-18T00:00:00.000Z", "s7"],
  ["carol", "a", "pending", "2026-11-18T01:00:00.000Z", "s8"],
  ["carol", "b", "rejected", "2026-09-01T12:00:00.000Z", "s9"],
  ["carol", "c", "pending", "2026-09-02T12:00:00.000Z", "s10"],
  ["carol", "c", "pending", "2026-09-03T12:00:00.000Z", "s11"],
  ["dave", "b", "approved", "2026-11-10T12:00:00.000Z", "s12"],
  ["dave", "b", "pending", "2026-11-10T12:00:00.000Z", "s13"],
  ["erin", "a", "approved", "2026-11-12T12:00:00.000Z", "s14"],
  ["erin", "c", "pending", "2026-11-12T12:00:00.000Z", "s15"],
] as const;

beforeAll(async () => {
  server = await startTestServer();
  for (const id of ["a", "b", "c"]) await insertFeed(server.db, { id });
  const posts = new Map<string, (typeof LINKS)[number][]>();
  for (const link of LINKS) posts.set(link[4], [...(posts.get(link[4]) ?? []), link]);
  for (const [tweetId, links] of posts) {
    await insertSubmission(server.db, {
      tweetId,
      curatorUsername: links[0][0],
      submittedAt: new Date(links[0][3]),
      feeds: links.map(([curatorUsername, feedId, status]) => ({ feedId, status, curatorUsername })),
    });
  }
});

afterAll(() => server.close());

const entry = (
  curator: string,
  submissionCount: number,
  approvalCount: number,
  rejectionCount: number,
  feeds: [string, number, number][],
): Omit<LeaderboardEntry, "rank"> => ({
  curatorId: `c-${curator}`,
  curatorUsername: curator,
  handles: [curator],
  submissionCount,
  approvalCount,
  rejectionCount,
  feedSubmissions: feeds.map(([feedId, count, totalInFeed]) => ({ feedId, count, totalInFeed })),
  userId: null,
  displayName: `@${curator}`,
  avatarUrl: null,
  score: submissionCount,
});

/**
 * Checks that entries are ranked 1, 2, 3… in order and returns them without the rank and the reputation (computed by
 * hand in reputation/reputation.test.ts), to compare by hand.
 */
function ranks(entries: LeaderboardEntry[]) {
  expect(entries.map((e) => e.rank)).toEqual(entries.map((_, index) => index + 1));
  return entries.map(({ rank: _rank, reputation: _reputation, ...rest }) => rest);
}

describe("leaderboard computed by hand", () => {
  it("all time: submissions then approvals then name; a post in two feeds counts in each", async () => {
    const { status, body } = await server.json("/api/leaderboard");
    expect(status).toBe(200);
    expect(ranks(body.data)).toEqual([
      entry("alice", 4, 2, 1, [
        ["a", 2, 6],
        ["b", 1, 5],
        ["c", 1, 5],
      ]),
      entry("bob", 4, 1, 1, [
        ["a", 2, 6],
        ["b", 1, 5],
        ["c", 1, 5],
      ]),
      entry("carol", 4, 0, 1, [
        ["c", 2, 5],
        ["a", 1, 6],
        ["b", 1, 5],
      ]),
      entry("dave", 2, 1, 0, [["b", 2, 5]]),
      entry("erin", 2, 1, 0, [
        ["a", 1, 6],
        ["c", 1, 5],
      ]),
    ]);
  });

  it("one feed: only that feed's links, ties broken by name", async () => {
    const { body } = await server.json("/api/leaderboard?feedId=B");
    expect(ranks(body.data)).toEqual([
      entry("dave", 2, 1, 0, [["b", 2, 5]]),
      entry("alice", 1, 0, 1, [["b", 1, 5]]),
      entry("bob", 1, 0, 0, [["b", 1, 5]]),
      entry("carol", 1, 0, 1, [["b", 1, 5]]),
    ]);
  });

  it("this month starts at the first, 00:00 UTC", async () => {
    expect(ranks(await getLeaderboard(server.db, { timeRange: "month", limit: 10 }, NOW))).toEqual([
      entry("bob", 4, 1, 1, [
        ["a", 2, 6],
        ["b", 1, 4],
        ["c", 1, 2],
      ]),
      entry("alice", 3, 2, 1, [
        ["a", 2, 6],
        ["b", 1, 4],
      ]),
      entry("dave", 2, 1, 0, [["b", 2, 4]]),
      entry("erin", 2, 1, 0, [
        ["a", 1, 6],
        ["c", 1, 2],
      ]),
      entry("carol", 1, 0, 0, [["a", 1, 6]]),
    ]);
  });

  it("this week starts on Monday, 00:00 UTC", async () => {
    expect(ranks(await getLeaderboard(server.db, { timeRange: "week", limit: 10 }, NOW))).toEqual([
      entry("alice", 3, 2, 1, [
        ["a", 2, 4],
        ["b", 1, 1],
      ]),
      entry("bob", 2, 1, 0, [
        ["a", 1, 4],
        ["c", 1, 1],
      ]),
      entry("carol", 1, 0, 0, [["a", 1, 4]]),
    ]);
    expect(
      ranks(await getLeaderboard(server.db, { timeRange: "week", feedId: "a", limit: 10 }, NOW)),
    ).toEqual([
      entry("alice", 2, 2, 0, [["a", 2, 4]]),
      entry("bob", 1, 0, 0, [["a", 1, 4]]),
      entry("carol", 1, 0, 0, [["a", 1, 4]]),
    ]);
  });

  it("today starts at 00:00 UTC", async () => {
    expect(ranks(await getLeaderboard(server.db, { timeRange: "today", limit: 10 }, NOW))).toEqual([
      entry("alice", 2, 1, 1, [
        ["a", 1, 2],
        ["b", 1, 1],
      ]),
      entry("bob", 1, 1, 0, [["c", 1, 1]]),
      entry("carol", 1, 0, 0, [["a", 1, 2]]),
    ]);
  });

  it("cuts at the limit after ranking", async () => {
    const { body } = await server.json("/api/leaderboard?limit=2");
    expect(body.data.map((e: LeaderboardEntry) => e.curatorUsername)).toEqual(["alice", "bob"]);
  });

  it("agrees with a direct count over the feed links for every scope", async () => {
    for (const timeRange of ["all", "month", "week", "today"] as const) {
      for (const feedId of [undefined, "a", "b", "c"]) {
        const since = timeRangeStart(timeRange, NOW);
        const direct = await queryRows<{ curator: string; n: number; approved: number; rejected: number }>(
          server.db,
          sql`select curator_username as curator, count(*)::int as n,
              (count(*) filter (where status = 'approved'))::int as approved,
              (count(*) filter (where status = 'rejected'))::int as rejected
            from submission_feeds
            where (${feedId ?? null}::text is null or feed_id = ${feedId ?? null})
              and (${since?.toISOString() ?? null}::timestamptz is null or submitted_at >= ${since?.toISOString() ?? null})
            group by curator_username order by n desc, approved desc, curator_username`,
        );
        const kept = await getLeaderboard(server.db, { timeRange, feedId, limit: 100 }, NOW);
        expect(
          kept.map((e) => ({
            curator: e.curatorUsername,
            n: e.submissionCount,
            approved: e.approvalCount,
            rejected: e.rejectionCount,
          })),
          `${timeRange} ${feedId ?? "all feeds"}`,
        ).toEqual(direct);
      }
    }
  });

  it.each([
    "?timeRange=year",
    "?timeRange=",
    "?limit=0",
    "?limit=1001",
    "?limit=-5",
    "?limit=ten",
    `?feedId=${"x".repeat(65)}`,
  ])("refuses %s with a 400 envelope", async (query) => {
    const { status, body } = await server.json(`/api/leaderboard${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
  });

  it("answers an unknown feed with a 404", async () => {
    expect((await server.json("/api/leaderboard?feedId=nope")).status).toBe(404);
  });
});
