import { type LeaderboardEntry, wilsonLowerBound } from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { queryRows } from "../db/sql.ts";
import { refreshMedians } from "./service.ts";

let server: TestServer;
let sequence = 0;

interface Decisions {
  feedId: string;
  curator: string;
  approved: number;
  rejected: number;
  /** Who decides (a NEAR account unless `byHandle`), and how. */
  moderator?: string;
  byHandle?: boolean;
  source?: "ui" | "platform_comment" | "auto_approval";
  /** Seconds from submission to decision. */
  waitSeconds?: number;
}

/** Posts of one curator decided in one feed, written straight to the tables so the triggers classify them. */
async function decide(d: Decisions) {
  const prefix = `p${++sequence}-`;
  const total = d.approved + d.rejected;
  if (total === 0) return [];
  await server.db.execute(sql`insert into submissions (tweet_id, user_id, username, content, curator_id,
      curator_username, created_at, submitted_at)
    select ${prefix} || n, 'u' || n, 'author' || n, 'Post ' || n, 'c-' || ${d.curator}, ${d.curator},
      timestamp '2026-01-01', timestamp '2026-01-01 01:00'
    from generate_series(1, ${total}) n`);
  await server.db.execute(sql`insert into submission_feeds (submission_id, feed_id, status, curator_id,
      curator_username, submitted_at)
    select ${prefix} || n, ${d.feedId}, case when n <= ${d.approved} then 'approved' else 'rejected' end,
      'c-' || ${d.curator}, ${d.curator}, timestamp '2026-01-01 01:00'
    from generate_series(1, ${total}) n`);
  await server.db.execute(sql`insert into moderation_history (submission_id, feed_id, moderator_account_id,
      moderator_account_id_type, source, action, created_at)
    select ${prefix} || n, ${d.feedId}, ${d.moderator ?? "mod.near"},
      ${d.byHandle ? "platform_username" : "near"}, ${d.source ?? "ui"},
      case when n <= ${d.approved} then 'approve' else 'reject' end,
      timestamp '2026-01-01 01:00' + make_interval(secs => ${d.waitSeconds ?? 600} * n)
    from generate_series(1, ${total}) n`);
  return Array.from({ length: total }, (_, i) => `${prefix}${i + 1}`);
}

const leaderboard = async (query: string) => {
  const { status, body } = await server.json(`/api/leaderboard${query}`);
  expect(status).toBe(200);
  return body.data as LeaderboardEntry[];
};

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  for (const id of ["news", "arts", "mixed"]) await insertFeed(server.db, { id });
  // Small samples against large ones: a perfect 3 of 3 must not outrank 95 of 100.
  await decide({ feedId: "news", curator: "perfect3", approved: 3, rejected: 0 });
  await decide({ feedId: "news", curator: "steady95", approved: 95, rejected: 5 });
  await decide({ feedId: "news", curator: "lucky1", approved: 1, rejected: 0 });
  // Ties: the same record twice (broken by name), and the same rate on more evidence (ranked higher).
  await decide({ feedId: "arts", curator: "zed", approved: 8, rejected: 2 });
  await decide({ feedId: "arts", curator: "amy", approved: 8, rejected: 2 });
  await decide({ feedId: "arts", curator: "bulk", approved: 16, rejected: 4 });
  // Spam rejected lowers the score.
  await decide({ feedId: "arts", curator: "spammer", approved: 2, rejected: 30 });
});

afterAll(() => server.close());

describe("reputation score", () => {
  it("ranks by the Wilson lower bound: 95 of 100 beats 3 of 3 beats 1 of 1", async () => {
    const entries = await leaderboard("?sort=score&feedId=news");
    expect(entries.map((entry) => [entry.rank, entry.curatorUsername])).toEqual([
      [1, "steady95"],
      [2, "perfect3"],
      [3, "lucky1"],
    ]);
    const [steady, perfect, lucky] = entries;
    expect(steady.reputation).toEqual({
      approvedCount: 95,
      rejectedCount: 5,
      retractedCount: 0,
      approvalRate: 95,
      score: expect.closeTo(wilsonLowerBound(95, 100), 9),
    });
    expect(perfect.reputation?.score).toBeCloseTo(wilsonLowerBound(3, 3), 9);
    expect(perfect.reputation?.approvalRate).toBe(100);
    expect(lucky.reputation?.score).toBeCloseTo(wilsonLowerBound(1, 1), 9);
    // The counts still come along, from the statistics of the same scope.
    expect(steady).toMatchObject({ submissionCount: 100, approvalCount: 95, rejectionCount: 5, score: 100 });
  });

  it("the bound itself: 0 without decisions, known values, monotone in evidence", () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(0, 10)).toBe(0);
    expect(wilsonLowerBound(3, 3)).toBeCloseTo(0.4385, 4);
    expect(wilsonLowerBound(95, 100)).toBeCloseTo(0.8882, 4);
    expect(wilsonLowerBound(8, 10)).toBeLessThan(wilsonLowerBound(16, 20));
  });

  it("the same record ties and breaks by name; the same rate on more evidence ranks higher; rejected spam sinks", async () => {
    const entries = await leaderboard("?sort=score&feedId=arts");
    expect(entries.map((entry) => entry.curatorUsername)).toEqual(["bulk", "amy", "zed", "spammer"]);
    expect(entries[1].reputation?.score).toBe(entries[2].reputation?.score);
    expect(entries[3].reputation).toMatchObject({ approvedCount: 2, rejectedCount: 30, approvalRate: 6 });
  });

  it("ranks over every feed with sort=score, and by counts without it", async () => {
    const byScore = await leaderboard("?sort=score");
    expect(byScore[0].curatorUsername).toBe("steady95");
    expect(byScore.map((entry) => entry.rank)).toEqual(byScore.map((_, index) => index + 1));
    const scores = byScore.map((entry) => entry.reputation?.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const byCounts = await leaderboard("");
    expect(byCounts[0].curatorUsername).toBe("steady95");
    expect(byCounts[1].curatorUsername).toBe("spammer");
  });

  it("cuts at the limit after ranking", async () => {
    const entries = await leaderboard("?sort=score&limit=2");
    expect(entries.map((entry) => entry.curatorUsername)).toEqual(["steady95", "bulk"]);
  });

  it("is all-time: a score over a time range is a 400, a bad sort too", async () => {
    const week = await server.json("/api/leaderboard?sort=score&timeRange=week");
    expect(week.status).toBe(400);
    expect(week.body.error.code).toBe("VALIDATION_ERROR");
    const bad = await server.json("/api/leaderboard?sort=karma");
    expect(bad.status).toBe(400);
  });
});

describe("what counts", () => {
  it("never counts self-decisions, auto-approvals, or decisions taken back", async () => {
    const key = newKey();
    await insertFeed(server.db, { id: "selfish", approvers: { twitter: ["selfie"] } });
    // selfie's own approvals: auto-approvals, by their own handle, by the account their handle is linked to.
    await decide({ feedId: "selfish", curator: "selfie", approved: 5, rejected: 0, source: "auto_approval" });
    await decide({
      feedId: "selfish",
      curator: "selfie",
      approved: 4,
      rejected: 0,
      moderator: "SELFIE",
      byHandle: true,
    });
    const { accountId } = await signIn(server, key);
    await server.db.execute(sql`insert into linked_accounts (user_id, platform_name, platform_user_id, username)
      select id, 'twitter', '4242', 'selfie' from users where near_account_id = ${accountId}`);
    await decide({ feedId: "selfish", curator: "selfie", approved: 3, rejected: 0, moderator: accountId });
    // Someone else's decisions count.
    const others = await decide({ feedId: "selfish", curator: "selfie", approved: 2, rejected: 1 });
    // An approval taken back inside its undo window no longer counts.
    await server.db.execute(
      sql`update moderation_history set undone_at = now() where submission_id = ${others[0]}`,
    );
    const [entry] = await leaderboard("?sort=score&feedId=selfish");
    expect(entry.reputation).toMatchObject({ approvedCount: 1, rejectedCount: 1, approvalRate: 50 });
    const approvers = await server.json("/api/reputation/approvers?feedId=selfish");
    expect(approvers.body.data.items).toEqual([
      expect.objectContaining({ moderatorAccountId: "mod.near", decisionCount: 2, overturnedCount: 0 }),
    ]);
  });

  it("a retraction overturns the approval: one rejection and one retraction for the curator", async () => {
    const moderator = newKey();
    await insertFeed(server.db, { id: "retracts", approvers: { twitter: [moderator.implicitAccountId] } });
    const [first, second] = await decide({ feedId: "retracts", curator: "oops", approved: 2, rejected: 0 });
    const { cookie } = await signIn(server, moderator);
    const retracted = await server.json("/api/moderate/retract", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify({ submissionId: first, feedId: "retracts", note: "turned out to be spam" }),
    });
    expect(retracted.status).toBe(200);
    const [entry] = await leaderboard("?sort=score&feedId=retracts");
    expect(entry.reputation).toMatchObject({ approvedCount: 1, rejectedCount: 1, retractedCount: 1 });
    const approvers = await server.json("/api/reputation/approvers?feedId=retracts");
    expect(approvers.body.data.items).toEqual([
      expect.objectContaining({ moderatorAccountId: "mod.near", decisionCount: 2, overturnedCount: 1 }),
      expect.objectContaining({ moderatorAccountId: moderator.implicitAccountId, decisionCount: 1 }),
    ]);
    expect(second).toBeDefined();
  });
});

describe("approvers", () => {
  it("shows the median time to decide as of its recomputation", async () => {
    await insertFeed(server.db, { id: "timed" });
    // 1, 2, 3 and 4 hours: the median is 2.5 h.
    await decide({
      feedId: "timed",
      curator: "clock",
      approved: 4,
      rejected: 0,
      moderator: "timer.near",
      waitSeconds: 3600,
    });
    const before = await server.json("/api/reputation/approvers?feedId=timed");
    expect(before.body.data.items[0]).toMatchObject({ medianDecisionSeconds: null });
    const asOf = new Date("2026-03-01T12:00:00Z");
    await refreshMedians(server.db, asOf);
    const { status, body } = await server.json("/api/reputation/approvers?feedId=timed");
    expect(status).toBe(200);
    expect(body.data).toEqual({
      items: [
        {
          moderatorAccountId: "timer.near",
          decisionCount: 4,
          overturnedCount: 0,
          medianDecisionSeconds: 9000,
          medianAsOf: asOf.toISOString(),
        },
      ],
      pagination: { page: 0, limit: 20, hasNextPage: false, totalCount: 1 },
    });
    const overall = await server.json("/api/reputation/approvers?limit=1");
    expect(overall.body.data.items[0].moderatorAccountId).toBe("mod.near");
    expect(overall.body.data.pagination).toMatchObject({ limit: 1, hasNextPage: true });
  });

  it("answers 404 for an unknown feed and 400 for a bad page", async () => {
    expect((await server.json("/api/reputation/approvers?feedId=nope")).status).toBe(404);
    expect((await server.json("/api/reputation/approvers?limit=101")).status).toBe(400);
  });

  it("keeps the reputation rows equal to the decisions' own parts", async () => {
    const mismatches = await queryRows<{ scope: string }>(
      server.db,
      sql`with parts as (
          select s.scope, h.curator_username, p.*
          from moderation_history h
          cross join lateral curate_reputation_parts(h.action, h.retraction, h.counts, h.undone_at, h.overturned_at) p
          cross join lateral (values ('*'), (h.feed_id)) s(scope)
          where h.curator_username is not null
        ), expected as (
          select scope, curator_username, sum(approved)::int as a, sum(rejected)::int as r, sum(retracted)::int as t
          from parts group by scope, curator_username
        )
        select coalesce(e.scope, c.scope) as scope from expected e
        full join curator_reputation c using (scope, curator_username)
        where coalesce(e.a, 0) <> coalesce(c.approved_count, 0) or coalesce(e.r, 0) <> coalesce(c.rejected_count, 0)
          or coalesce(e.t, 0) <> coalesce(c.retracted_count, 0)`,
    );
    expect(mismatches).toEqual([]);
  });
});
