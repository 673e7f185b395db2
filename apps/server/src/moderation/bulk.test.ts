import { BULK_DECISION_LIMIT } from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { queryRows } from "../db/sql.ts";

/** POST /api/moderate/bulk: a queue of hundreds decided in one call, each post once, whoever else is deciding. */
let server: TestServer;
const ownerKey = newKey();
const adminKey = newKey();
let owner: string;
let admin: string;
let stranger: string;

beforeAll(async () => {
  server = await startTestServer({
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "10000",
  });
  owner = (await signIn(server, ownerKey)).cookie;
  admin = (await signIn(server, adminKey)).cookie;
  stranger = (await signIn(server)).cookie;
  for (const id of ["busy", "search", "networks"]) {
    await insertFeed(server.db, {
      id,
      createdBy: ownerKey.implicitAccountId,
      admins: [adminKey.implicitAccountId],
    });
  }
});

afterAll(() => server.close());

const bulk = (body: unknown, cookie = owner) =>
  server.json("/api/moderate/bulk", {
    method: "POST",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify(body),
  });

async function pendingPosts(feedId: string, count: number, content = (i: number) => `Queue post ${i}`) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await insertSubmission(server.db, { content: content(i), feeds: [{ feedId }] })).tweetId);
  }
  return ids;
}

describe("bulk decisions", () => {
  it("decides 200 posts in one call, each exactly once, while another moderator decides some of them", async () => {
    const ids = await pendingPosts("busy", 200);
    const contested = ids.filter((_, index) => index % 10 === 0);
    const [answer, ...singles] = await Promise.all([
      bulk({ feedId: "busy", action: "approve", submissionIds: ids, note: "cleared the queue" }),
      ...contested.map((submissionId) =>
        server.json("/api/moderate", {
          method: "POST",
          headers: sessionHeaders(server, admin),
          body: JSON.stringify({ feedId: "busy", submissionId, action: "reject" }),
        }),
      ),
    ]);
    expect(answer.status).toBe(200);
    const outcomes = new Map<string, string>(
      answer.body.data.results.map((r: { submissionId: string; outcome: string }) => [
        r.submissionId,
        r.outcome,
      ]),
    );
    expect(answer.body.data.results.map((r: { submissionId: string }) => r.submissionId)).toEqual(ids);

    // Each contested post went to whoever came first, and the other was told so.
    contested.forEach((id, index) => {
      const single = singles[index].status;
      expect([200, 409]).toContain(single);
      expect(outcomes.get(id)).toBe(single === 200 ? "already_rejected" : "decided");
    });
    const rejectedBySingles = singles.filter((single) => single.status === 200).length;
    expect(answer.body.data.decided).toBe(200 - rejectedBySingles);
    expect(answer.body.message).toBe(`${200 - rejectedBySingles} posts approved.`);

    const [counts] = await queryRows<Record<string, number>>(
      server.db,
      sql`select
        (select count(*) from moderation_history where feed_id = 'busy')::int as history,
        (select count(distinct submission_id) from moderation_history where feed_id = 'busy')::int as decided,
        (select count(*) from submission_feeds where feed_id = 'busy' and status = 'approved')::int as approved,
        (select count(*) from processing_jobs where feed_id = 'busy')::int as jobs,
        (select count(*) from activities where feed_id = 'busy' and type = 'CONTENT_APPROVAL')::int as approvals,
        (select coalesce(sum(approval_count), 0) from feed_user_stats where feed_id = 'busy')::int as statApprovals,
        (select coalesce(sum(rejection_count), 0) from feed_user_stats where feed_id = 'busy')::int as statRejections`,
    );
    expect(counts).toEqual({
      history: 200,
      decided: 200,
      approved: 200 - rejectedBySingles,
      jobs: 200 - rejectedBySingles,
      approvals: 200 - rejectedBySingles,
      statapprovals: 200 - rejectedBySingles,
      statrejections: rejectedBySingles,
    });

    const again = await bulk({ feedId: "busy", action: "reject", submissionIds: ids.slice(0, 3) });
    expect(again.body.data).toMatchObject({ decided: 0 });
    expect(again.body.data.results.map((r: { outcome: string }) => r.outcome)).toEqual(
      ids.slice(0, 3).map((id) => (outcomes.get(id) === "decided" ? "already_approved" : "already_rejected")),
    );
  });

  it("reports unknown posts, decides a repeated id once, and takes the search's matches on the server", async () => {
    const ids = await pendingPosts("search", 6, (i) =>
      i % 2 ? `About solar power ${i}` : `About wind ${i}`,
    );
    const byId = await bulk({
      feedId: "search",
      action: "reject",
      submissionIds: [ids[0], ids[0], "nosuchpost"],
    });
    expect(byId.body.data.results).toEqual([
      { submissionId: ids[0], outcome: "decided", processingJobId: null },
      { submissionId: "nosuchpost", outcome: "not_found", processingJobId: null },
    ]);

    const bySearch = await bulk({ feedId: "search", action: "approve", filter: { q: "SOLAR" } }, admin);
    expect(bySearch.status).toBe(200);
    expect(bySearch.body.data.results.map((r: { submissionId: string }) => r.submissionId).sort()).toEqual(
      [ids[1], ids[3], ids[5]].sort(),
    );
    expect(bySearch.body.data.decided).toBe(3);
    // A handle typed as the app shows it matches as it does in the list.
    const { tweetId: byHandle } = await insertSubmission(server.db, {
      username: "windwatcher",
      content: "Offshore turbines",
      feeds: [{ feedId: "search" }],
    });
    const byAt = await bulk({ feedId: "search", action: "reject", filter: { q: "@windwatcher" } });
    expect(byAt.body.data.results).toEqual([
      { submissionId: byHandle, outcome: "decided", processingJobId: null },
    ]);
    const everything = await bulk({ feedId: "search", action: "approve", filter: {} });
    // What is left pending: the wind posts but the one rejected above.
    expect(everything.body.data.results.map((r: { submissionId: string }) => r.submissionId).sort()).toEqual(
      [ids[2], ids[4]].sort(),
    );
  });

  it("narrows a decision by filter to the network the list shows", async () => {
    const posts: Record<string, string> = {};
    for (const [key, platform, content] of [
      ["skySolar", "bluesky", "Solar on Bluesky"],
      ["skyWind", "bluesky", "Wind on Bluesky"],
      ["xSolar", "twitter", "Solar on X"],
      ["tootSolar", "mastodon", "Solar on Mastodon"],
    ] as const) {
      const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId: "networks" }] });
      await server.db.execute(sql`update submissions set platform = ${platform} where tweet_id = ${tweetId}`);
      posts[key] = tweetId;
    }
    const decidedIds = (answer: { body: { data: { results: { submissionId: string }[] } } }) =>
      answer.body.data.results.map((result) => result.submissionId).sort();

    const skySolar = await bulk({
      feedId: "networks",
      action: "approve",
      filter: { q: "solar", platform: "bluesky" },
    });
    expect(decidedIds(skySolar)).toEqual([posts.skySolar]);
    const sky = await bulk({ feedId: "networks", action: "reject", filter: { platform: "bluesky" } });
    expect(decidedIds(sky)).toEqual([posts.skyWind]);
    const bad = await bulk({ feedId: "networks", action: "reject", filter: { platform: "myspace" } });
    expect(bad.status).toBe(400);
    // The other networks' posts are still pending.
    const everything = await bulk({ feedId: "networks", action: "approve", filter: {} });
    expect(decidedIds(everything)).toEqual([posts.xSolar, posts.tootSolar].sort());
  });

  it("is for the feed's moderators only, and refuses what it cannot take", async () => {
    const body = { feedId: "busy", action: "approve", submissionIds: ["1"] };
    const anonymous = await server.json("/api/moderate/bulk", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.baseUrl },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);
    expect((await bulk(body, stranger)).status).toBe(403);
    expect((await bulk({ ...body, feedId: "nosuchfeed" })).status).toBe(404);
    for (const bad of [
      { ...body, submissionIds: Array.from({ length: BULK_DECISION_LIMIT + 1 }, (_, i) => `p${i}`) },
      { ...body, submissionIds: [] },
      { feedId: "busy", action: "approve" },
      { ...body, filter: { q: "x" } },
      { ...body, action: "maybe" },
    ]) {
      const answer = await bulk(bad);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});
