import { TEST_POST_BATCH_MAX } from "@curate/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { submissionFeeds, submissions } from "../db/schema.ts";
import { isDue, runFeedSources } from "./feed-sources.ts";

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ BOT_HANDLE: "curatebot", AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  await insertFeed(server.db, {
    id: "ai",
    config: {
      id: "ai",
      name: "AI",
      description: "d",
      pollingIntervalMs: 60_000,
      sources: [
        {
          plugin: "@curate/test-source",
          search: [{ searchId: "sequencers", type: "keyword", query: "sequencer" }],
        },
      ],
    },
  });
  await insertFeed(server.db, {
    id: "paused",
    config: { id: "paused", name: "Paused", description: "d", enabled: false },
  });
  cookie = (await signIn(server)).cookie;
});

afterAll(() => server.close());

const receiveBotPost = (body: Record<string, unknown>, headers = sessionHeaders(server, cookie)) =>
  server.json("/api/test/tweets", { method: "POST", headers, body: JSON.stringify(body) });

describe("POST /api/test/tweets", () => {
  it("creates a post and has intake read it before answering", async () => {
    const { status, body } = await receiveBotPost({
      text: "!submit @curatebot #ai hello world",
      username: "@tester",
    });
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ username: "tester", intake: { submitted: 1 } });
    const [link] = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.submissionId, body.data.id));
    expect(link).toMatchObject({
      feedId: "ai",
      status: "pending",
      curatorUsername: "tester",
      curatorNotes: "hello world",
    });
  });

  it("submits the parent of a reply and appends the given hashtags", async () => {
    const parent = await receiveBotPost({ text: "An original thought about rollups", username: "author" });
    const reply = await receiveBotPost({
      text: "!submit @curatebot worth it",
      username: "curator",
      hashtags: ["AI"],
      inReplyToStatusId: parent.body.data.id,
    });
    expect(reply.body.data.text).toBe("!submit @curatebot worth it #ai");
    const [post] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, parent.body.data.id));
    expect(post).toMatchObject({
      content: "An original thought about rollups",
      username: "author",
      curatorUsername: "curator",
    });
  });

  it("accepts no submission to a disabled feed", async () => {
    const { status, body } = await receiveBotPost({
      text: "!submit @curatebot #paused too late",
      username: "late",
    });
    expect(status).toBe(201);
    expect(body.data.intake).toMatchObject({ submitted: 0 });
    const stored = await server.db.select().from(submissionFeeds).where(eq(submissionFeeds.feedId, "paused"));
    expect(stored).toEqual([]);
  });

  it("validates input and needs a session", async () => {
    expect((await receiveBotPost({ text: "", username: "x" })).status).toBe(400);
    expect((await receiveBotPost({ text: "hi", username: "not a handle!" })).status).toBe(400);
    expect((await receiveBotPost({ text: "hi", username: "x", inReplyToStatusId: "abc" })).status).toBe(400);
    const anonymous = await receiveBotPost(
      { text: "hi", username: "x" },
      { "Content-Type": "application/json", Origin: server.baseUrl },
    );
    expect(anonymous.status).toBe(401);
  });

  it("stores a batch in order and has one intake pass read it all", async () => {
    const parentText = "A thread opener about data availability";
    const { status, body } = await server.json("/api/test/tweets/batch", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify({
        posts: [
          { text: parentText, username: "opener" },
          ...Array.from({ length: 30 }, (_, index) => ({
            text: `!submit @curatebot #ai batch item ${index}`,
            username: "@batcher",
          })),
        ],
      }),
    });
    expect(status).toBe(201);
    expect(body.data.ids).toHaveLength(31);
    expect([...body.data.ids].sort()).toEqual(body.data.ids);
    expect(body.data.intake).toEqual({ read: 30, submitted: 30, moderated: 0 });
    const stored = await server.db
      .select({ notes: submissionFeeds.curatorNotes, curator: submissionFeeds.curatorUsername })
      .from(submissionFeeds)
      .where(eq(submissionFeeds.feedId, "ai"));
    expect(stored.filter((row) => row.notes?.startsWith("batch item"))).toHaveLength(30);
    expect(stored.find((row) => row.notes === "batch item 29")).toEqual({
      notes: "batch item 29",
      curator: "batcher",
    });

    // A reply in a later batch submits the post it replies to, as one sent on its own does.
    const [parentId] = body.data.ids;
    const reply = await server.json("/api/test/tweets/batch", {
      method: "POST",
      headers: sessionHeaders(server, cookie),
      body: JSON.stringify({
        posts: [{ text: "!submit @curatebot #ai", username: "replier", inReplyToStatusId: parentId }],
      }),
    });
    expect(reply.body.data.intake).toMatchObject({ submitted: 1 });
    const [parent] = await server.db.select().from(submissions).where(eq(submissions.tweetId, parentId));
    expect(parent).toMatchObject({ content: parentText, curatorUsername: "replier" });
  });

  it("refuses an empty batch, one too long, a bad post in it, and a caller without a session", async () => {
    const sendBatch = (posts: unknown[], headers = sessionHeaders(server, cookie)) =>
      server.json("/api/test/tweets/batch", { method: "POST", headers, body: JSON.stringify({ posts }) });
    const post = { text: "!submit @curatebot #ai over the cap", username: "many" };
    expect((await sendBatch([])).status).toBe(400);
    const tooMany = await sendBatch(Array.from({ length: TEST_POST_BATCH_MAX + 1 }, () => post));
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain(`at most ${TEST_POST_BATCH_MAX} posts`);
    expect((await sendBatch([post, { text: "hi", username: "not a handle!" }])).status).toBe(400);
    const anonymous = await sendBatch([post], { "Content-Type": "application/json", Origin: server.baseUrl });
    expect(anonymous.status).toBe(401);
    const stored = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.curatorNotes, "over the cap"));
    expect(stored).toEqual([]);
  });

  it("does not exist in production", async () => {
    const production = await startTestServer({
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      LOG_SIGNING_KEY: "a".repeat(64),
    });
    try {
      const { status, body } = await production.json("/api/test/tweets", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect([401, 404]).toContain(status);
      const openapi = await production.json("/api/openapi.json");
      expect(Object.keys(openapi.body.paths)).not.toContain("/test/tweets");
      expect(Object.keys(openapi.body.paths)).not.toContain("/test/tweets/batch");
      const batch = await production.json("/api/test/tweets/batch", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ posts: [{ text: "hi", username: "x" }] }),
      });
      expect([401, 404]).toContain(batch.status);
      expect(body.success).toBe(false);
    } finally {
      await production.close();
    }
  });
});

describe("feed sources", () => {
  it("stores what a feed's search finds as pending submissions attributed to the source, once", async () => {
    await receiveBotPost({ text: "Notes on sequencer decentralisation", username: "writer" });
    const now = new Date();
    const first = await runFeedSources(server.db, server.intake, { warn() {} } as never, now);
    expect(first.stored).toBe(1);
    const found = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.curatorId, "source:feed:ai:0:sequencers"));
    expect(found).toEqual([
      expect.objectContaining({ feedId: "ai", status: "pending", curatorUsername: null }),
    ]);

    await receiveBotPost({ text: "Another sequencer deep dive", username: "writer" });
    const notDue = await runFeedSources(
      server.db,
      server.intake,
      { warn() {} } as never,
      new Date(now.getTime() + 1000),
    );
    expect(notDue.stored).toBe(0);
    const due = await runFeedSources(
      server.db,
      server.intake,
      { warn() {} } as never,
      new Date(now.getTime() + 120_000),
    );
    expect(due.stored).toBe(1);
    const again = await runFeedSources(
      server.db,
      server.intake,
      { warn() {} } as never,
      new Date(now.getTime() + 240_000),
    );
    expect(again.stored).toBe(0);
  });

  it("follows a cron schedule when the feed has one", () => {
    const config = { id: "x", name: "x", description: "x", ingestion: { schedule: "0 * * * *" } };
    const last = new Date("2026-11-21T10:05:00Z");
    expect(isDue(config, last, new Date("2026-11-21T10:59:00Z"))).toBe(false);
    expect(isDue(config, last, new Date("2026-11-21T11:00:00Z"))).toBe(true);
    expect(isDue(config, undefined, last)).toBe(true);
  });
});
