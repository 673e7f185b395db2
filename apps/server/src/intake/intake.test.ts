import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, intakeTableCounts } from "../../test/factories.ts";
import { startFakeX } from "../../test/fake-x.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { XApiClient } from "../clients/x-api.ts";
import {
  activities,
  feedUserStats,
  moderationHistory,
  processingJobs,
  sourceCursors,
  submissionFeeds,
  submissions,
} from "../db/schema.ts";
import { XMentionSource } from "../sources/x.ts";
import { runMentionIntake } from "./service.ts";

const BOT = "curatebot";
let server: TestServer;
let x: Awaited<ReturnType<typeof startFakeX>>;
let source: XMentionSource;
const waits: number[] = [];
const ids: Record<string, string> = {};

const run = () => runMentionIntake(server.db, source);

beforeAll(async () => {
  x = await startFakeX({ bearerToken: "secret-token", botUsername: BOT });
  server = await startTestServer({ BOT_HANDLE: BOT, X_API_BASE_URL: x.url, X_BEARER_TOKEN: "secret-token" });
  const client = new XApiClient({
    baseUrl: x.url,
    bearerToken: "secret-token",
    maxRetries: 2,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  // Pages of 3 so a handful of mentions crosses page boundaries.
  source = new XMentionSource(client, BOT, 3);
  await insertFeed(server.db, {
    id: "ai",
    approvers: { twitter: ["Approver_Amy"] },
    blacklist: { twitter: ["@spammer"] },
  });
  await insertFeed(server.db, { id: "web3", approvers: { twitter: ["web3_mod"] } });

  ids.p1 = x.post("author_one", "A long read about language models and their limits");
  ids.p2 = x.post("author_two", "Thread: zero-knowledge proofs explained");
  ids.m1 = x.post("curator_cat", `!submit @${BOT} #ai must read`, ids.p1);
  ids.m2 = x.post("curator_dan", `!Submit @CurateBot #web3 #nosuchfeed different angle`, ids.p1);
  ids.m3 = x.post("spammer", `!submit @${BOT} #ai buy now`, ids.p2);
  ids.m4 = x.post("approver_amy", `!submit @${BOT} #ai #web3 auto`, ids.p2);
  ids.m5 = x.post("web3_mod", `@${BOT} !reject off-topic`, ids.m2);
  ids.m6 = x.post("approver_amy", `@${BOT} !approve #ai nice`, ids.m1);
  ids.m7 = x.post("nobody", `@${BOT} !approve`, ids.m1);
  ids.m8 = x.post("curator_cat", `!submit @${BOT} standalone thought worth keeping`);
  x.post("someone", "not a mention at all");
});

afterAll(async () => {
  await server.close();
  await x.close();
});

const links = () =>
  server.db
    .select()
    .from(submissionFeeds)
    .orderBy(asc(submissionFeeds.submissionId), asc(submissionFeeds.feedId));

const tableCounts = () => intakeTableCounts(server.db);

describe("mention intake from X API v2", () => {
  it("follows every page, applies the commands and saves the cursor", async () => {
    const result = await run();
    expect(result.read).toBe(8);
    const mentionCalls = x.requests.filter((u) => u.pathname.endsWith("/mentions"));
    expect(mentionCalls.length).toBe(3);
    expect(mentionCalls[1].searchParams.get("pagination_token")).toBe("3");
    expect(mentionCalls[0].searchParams.get("expansions")).toContain("referenced_tweets.id");

    const [cursor] = await server.db
      .select()
      .from(sourceCursors)
      .where(eq(sourceCursors.sourceKey, `x:mentions:${BOT}`));
    expect(cursor.cursor).toBe(ids.m8);
  });

  it("submits the replied-to post with per-feed curator and notes, ignoring unknown feeds", async () => {
    const [post] = await server.db.select().from(submissions).where(eq(submissions.tweetId, ids.p1));
    expect(post).toMatchObject({
      username: "author_one",
      content: "A long read about language models and their limits",
      curatorUsername: "curator_cat",
      curatorNotes: "must read",
      curatorTweetId: ids.m1,
    });
    const p1Links = (await links()).filter((l) => l.submissionId === ids.p1);
    expect(p1Links.map((l) => [l.feedId, l.curatorUsername, l.curatorNotes, l.status])).toEqual([
      ["ai", "curator_cat", "must read", "approved"],
      ["web3", "curator_dan", "different angle", "rejected"],
    ]);
  });

  it("ignores blacklisted curators and auto-approves approvers' own submissions", async () => {
    const p2Links = (await links()).filter((l) => l.submissionId === ids.p2);
    expect(p2Links.map((l) => [l.feedId, l.curatorUsername, l.status])).toEqual([
      ["ai", "approver_amy", "approved"],
      ["web3", "approver_amy", "pending"],
    ]);
    const auto = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, ids.p2));
    expect(auto).toEqual([
      expect.objectContaining({
        feedId: "ai",
        source: "auto_approval",
        moderatorAccountId: "approver_amy",
        moderatorAccountIdType: "platform_username",
        action: "approve",
      }),
    ]);
  });

  it("applies !approve and !reject replies from approvers only, with notes", async () => {
    const history = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, ids.p1))
      .orderBy(asc(moderationHistory.id));
    expect(history.map((h) => [h.feedId, h.action, h.source, h.moderatorAccountId, h.note])).toEqual([
      ["web3", "reject", "platform_comment", "web3_mod", "off-topic"],
      ["ai", "approve", "platform_comment", "approver_amy", "nice"],
    ]);
  });

  it("submits a non-reply to the all feed as itself", async () => {
    const [own] = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.submissionId, ids.m8));
    expect(own).toMatchObject({
      feedId: "all",
      status: "pending",
      curatorNotes: "standalone thought worth keeping",
    });
  });

  it("writes activities, curator statistics and one processing request per approval", async () => {
    const kinds = await server.db
      .select({ type: activities.type, n: count() })
      .from(activities)
      .groupBy(activities.type)
      .orderBy(activities.type);
    expect(kinds).toEqual([
      { type: "CONTENT_APPROVAL", n: 2 },
      { type: "CONTENT_REJECTION", n: 1 },
      { type: "CONTENT_SUBMISSION", n: 5 },
    ]);
    const stats = await server.db
      .select()
      .from(feedUserStats)
      .orderBy(feedUserStats.feedId, feedUserStats.curatorUsername);
    expect(
      stats.map((s) => [s.feedId, s.curatorUsername, s.submissionCount, s.approvalCount, s.rejectionCount]),
    ).toEqual([
      ["ai", "approver_amy", 1, 1, 0],
      ["ai", "curator_cat", 1, 1, 0],
      ["all", "curator_cat", 1, 0, 0],
      ["web3", "approver_amy", 1, 0, 0],
      ["web3", "curator_dan", 1, 0, 1],
    ]);
    const jobs = await server.db.select().from(processingJobs).orderBy(processingJobs.submissionId);
    expect(jobs.map((j) => [j.submissionId, j.feedId, j.status])).toEqual([
      [ids.p1, "ai", "pending"],
      [ids.p2, "ai", "pending"],
    ]);
  });

  it("stores nothing twice when the same mentions are read again", async () => {
    const before = await tableCounts();
    await server.db.delete(sourceCursors);
    expect((await run()).read).toBe(8);
    expect(await tableCounts()).toEqual(before);
  });

  it("backs off and retries on 429 and 5xx", async () => {
    ids.p3 = x.post("author_three", "Benchmarks for small models");
    ids.m9 = x.post("curator_eve", `!submit @${BOT} #ai late one`, ids.p3);
    x.failNext(429, 0);
    x.failNext(503);
    const result = await run();
    expect(result.read).toBe(1);
    expect(waits.length).toBeGreaterThanOrEqual(2);
    const eve = (await links()).find((l) => l.curatorUsername === "curator_eve");
    expect(eve).toMatchObject({ submissionId: ids.p3, feedId: "ai", curatorNotes: "late one" });
  });

  it("retries when the connection itself fails", async () => {
    const flaky = new XApiClient({
      baseUrl: "http://127.0.0.1:9",
      bearerToken: "secret-token",
      maxRetries: 2,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const before = waits.length;
    await expect(flaky.userIdOf(BOT)).rejects.toThrow(/could not be reached/);
    expect(waits.length - before).toBe(2);
  });

  it("keeps the cursor when a pass fails part-way, so nothing is lost", async () => {
    const [before] = await server.db.select().from(sourceCursors);
    ids.p4 = x.post("author_four", "Rollups compared");
    ids.m10 = x.post("curator_fay", `!submit @${BOT} #web3 keep me`, ids.p4);
    for (let i = 0; i < 3; i++) x.failNext(500);
    await expect(run()).rejects.toThrow(/500/);
    const [after] = await server.db.select().from(sourceCursors);
    expect(after.cursor).toBe(before.cursor);
    expect((await links()).find((l) => l.curatorUsername === "curator_fay")).toBeUndefined();
    await run();
    const fay = (await links()).find((l) => l.curatorUsername === "curator_fay");
    expect(fay).toMatchObject({ submissionId: ids.p4, feedId: "web3", status: "pending" });
    const [latest] = await server.db.select().from(sourceCursors);
    expect(latest.cursor).toBe(ids.m10);
  });
});
