import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleOnPlatform, submissionKey } from "@curate/core";
import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, intakeTableCounts } from "../../test/factories.ts";
import { startFakeMastodon } from "../../test/fakes/mastodon.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { MastodonClient } from "../clients/mastodon.ts";
import { loadEnv } from "../config/env.ts";
import { moderationHistory, sourceCursors, submissionFeeds, submissions } from "../db/schema.ts";
import { MastodonMentionSource } from "../sources/mastodon.ts";
import { runFeedSources } from "./feed-sources.ts";
import { createIntake } from "./runtime.ts";
import { runMentionIntake } from "./service.ts";

const TOKEN = "mastodon-test-token";
const DOMAIN = "mastodon.test";
const CURSOR_KEY = `mastodon:mentions:${DOMAIN}`;

let server: TestServer;
let fake: Awaited<ReturnType<typeof startFakeMastodon>>;
let client: MastodonClient;
let source: MastodonMentionSource;
const waits: number[] = [];
const logLines: string[] = [];
const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });
// biome-ignore lint/suspicious/noExplicitAny: Mastodon status entities from the fake
const statuses: Record<string, any> = {};

const key = (name: string) => submissionKey("mastodon", statuses[name].uri);
const curator = (handle: string) => handleOnPlatform("mastodon", handle);
const run = () => runMentionIntake(server.db, source, logger);
const notificationCalls = () => fake.requests.filter((r) => r.path === "/api/v1/notifications");
const cursor = async () =>
  (await server.db.select().from(sourceCursors).where(eq(sourceCursors.sourceKey, CURSOR_KEY)))[0]?.cursor;
const linksOf = (name: string) =>
  server.db
    .select()
    .from(submissionFeeds)
    .where(eq(submissionFeeds.submissionId, key(name)))
    .orderBy(asc(submissionFeeds.feedId));

const tableCounts = () => intakeTableCounts(server.db);

beforeAll(async () => {
  fake = await startFakeMastodon({ accessToken: TOKEN, botUsername: "curate", domain: DOMAIN });
  server = await startTestServer({
    MASTODON_BASE_URL: fake.url,
    MASTODON_ACCESS_TOKEN: TOKEN,
    MASTODON_BOT_ACCT: `curate@${DOMAIN}`,
  });
  client = new MastodonClient({
    baseUrl: fake.url,
    accessToken: TOKEN,
    localDomain: DOMAIN,
    maxRetries: 2,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  // Pages of 2 so a handful of mentions crosses page boundaries.
  source = new MastodonMentionSource(client, { pageSize: 2, logger });
  await insertFeed(server.db, {
    id: "ai",
    approvers: { mastodon: ["@mod@fosstodon.org"], twitter: ["dan"] },
    blacklist: { mastodon: ["spammer@spam.example"] },
  });
  await insertFeed(server.db, { id: "fedi" });

  statuses.p1 = fake.post({
    by: "alice@fosstodon.org",
    spoiler: "long read",
    text:
      "Why feeds still matter: https://example.com/articles/2026/why-feeds-still-matter?ref=fedi&lang=en\n\n" +
      "Thanks @carol@hachyderm.io & @bob :blobcat: #OpenWeb",
    media: [{ type: "image", description: "A chart of feed readers by year" }],
  });
  statuses.m1 = fake.post({
    by: "dan",
    inReplyTo: statuses.p1.id,
    text: "@alice@fosstodon.org !submit @curate #ai must read",
  });
  fake.follow("erin");
  statuses.m2 = fake.post({
    by: "nobody@elsewhere.example",
    inReplyTo: statuses.m1.id,
    text: "@dan @curate !approve",
  });
  statuses.m3 = fake.post({
    by: "mod@fosstodon.org",
    inReplyTo: statuses.m1.id,
    text: "@dan @curate !approve #ai nice find",
  });
  statuses.p2 = fake.post({ by: "erin", text: "Notes on relays, followers only", visibility: "private" });
  statuses.m4 = fake.post({ by: "dan", inReplyTo: statuses.p2.id, text: "@erin !submit @curate #fedi" });
  statuses.p3 = fake.post({ by: "frank", text: "Self-hosting a small instance" });
  statuses.m5 = fake.post({
    by: "spammer@spam.example",
    inReplyTo: statuses.p3.id,
    text: "!submit @curate #ai buy now",
  });
  statuses.p4 = fake.post({ by: "gina", text: "Soon deleted" });
  statuses.m6 = fake.post({ by: "dan", inReplyTo: statuses.p4.id, text: "@gina !submit @curate #fedi" });
  fake.remove(statuses.p4.id);
  statuses.m7 = fake.post({
    by: "grace@mas.to",
    text: "!submit @curate@mastodon.test #fedi a thought worth keeping",
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe("mention intake from Mastodon", () => {
  it("reads every page of the bot's mention notifications and saves the newest id as the cursor", async () => {
    const result = await run();
    expect(result.read).toBe(7);
    const calls = notificationCalls();
    expect(calls.length).toBe(4);
    expect(calls.every((c) => c.query.getAll("types[]").join() === "mention")).toBe(true);
    expect(calls[0].query.get("max_id")).toBeNull();
    // Each older page is the one the previous page's Link header named.
    expect(calls[1].query.get("max_id")).toMatch(/^\d+$/);
    expect(BigInt(calls[2].query.get("max_id") ?? 0)).toBeLessThan(BigInt(calls[1].query.get("max_id") ?? 0));
    expect(await cursor()).toBe(fake.newestNotificationId());
  });

  it("submits the status a `!submit` replies to, with its text as the author wrote it", async () => {
    const [post] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key("p1")));
    expect(post).toMatchObject({
      platform: "mastodon",
      username: "alice@fosstodon.org",
      authorDisplayName: "Alice",
      url: statuses.p1.url,
      content:
        "long read\n\n" +
        "Why feeds still matter: https://example.com/articles/2026/why-feeds-still-matter?ref=fedi&lang=en\n\n" +
        `Thanks @carol@hachyderm.io & @bob@${DOMAIN} :blobcat: #OpenWeb`,
      curatorUsername: curator(`dan@${DOMAIN}`),
      curatorNotes: "must read",
      curatorTweetId: submissionKey("mastodon", statuses.m1.uri),
    });
    expect(post.media).toEqual([
      { url: statuses.p1.media_attachments[0].url, type: "image", alt: "A chart of feed readers by year" },
    ]);
  });

  it("approves on `!approve` from an approver listed under mastodon, and not from anyone else", async () => {
    expect((await linksOf("p1")).map((l) => [l.feedId, l.status])).toEqual([["ai", "approved"]]);
    const history = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, key("p1")));
    expect(history.map((h) => [h.action, h.source, h.moderatorAccountId, h.note])).toEqual([
      ["approve", "platform_comment", curator("mod@fosstodon.org"), "nice find"],
    ]);
  });

  it("submits nothing private, from a blacklisted curator, or that the instance no longer shows", async () => {
    for (const name of ["p2", "p3", "p4"]) {
      expect(
        await server.db
          .select()
          .from(submissions)
          .where(eq(submissions.tweetId, key(name))),
      ).toEqual([]);
    }
    expect(fake.requests.some((r) => r.path === `/api/v1/statuses/${statuses.p4.id}`)).toBe(true);
  });

  it("submits a `!submit` that replies to nothing as itself", async () => {
    expect((await linksOf("m7")).map((l) => [l.feedId, l.status, l.curatorNotes])).toEqual([
      ["fedi", "pending", "a thought worth keeping"],
    ]);
  });

  it("stores nothing twice when the same notifications are read again", async () => {
    const before = await tableCounts();
    await server.db.delete(sourceCursors).where(eq(sourceCursors.sourceKey, CURSOR_KEY));
    expect((await run()).read).toBe(7);
    expect(await tableCounts()).toEqual(before);
  });

  it("reads on from the cursor with min_id, a page up at a time, and saves the newest", async () => {
    const saved = await cursor();
    statuses.p5 = fake.post({ by: "hana@fosstodon.org", text: "Moderation tooling roundup" });
    for (const note of ["one", "two", "three"]) {
      statuses[`m-${note}`] = fake.post({
        by: "dan",
        inReplyTo: statuses.p5.id,
        text: `@hana@fosstodon.org !submit @curate #fedi ${note}`,
      });
    }
    const already = notificationCalls().length;
    expect((await run()).read).toBe(3);
    const calls = notificationCalls().slice(already);
    expect(calls[0].query.get("min_id")).toBe(saved);
    expect(calls.length).toBe(2);
    expect(BigInt(calls[1].query.get("min_id") ?? 0)).toBeGreaterThan(BigInt(saved ?? 0));
    expect(await cursor()).toBe(fake.newestNotificationId());
    // The first `!submit` of the post owns its link.
    expect((await linksOf("p5")).map((l) => [l.feedId, l.curatorNotes])).toEqual([["fedi", "one"]]);
  });

  it("waits out a 429 until X-RateLimit-Reset, then reads", async () => {
    statuses.m8 = fake.post({ by: "dan", text: "!submit @curate #fedi after the limit" });
    fake.rateLimitNext(3);
    const before = waits.length;
    expect((await run()).read).toBe(1);
    expect(waits.length - before).toBe(1);
    expect(waits[before]).toBeGreaterThan(1000);
    expect(waits[before]).toBeLessThanOrEqual(3000);
    expect((await linksOf("m8")).map((l) => l.feedId)).toEqual(["fedi"]);
  });

  it("keeps the cursor when a pass fails part-way, so nothing is lost", async () => {
    const saved = await cursor();
    statuses.p6 = fake.post({ by: "ivan", text: "Search on the fediverse" });
    statuses.m9 = fake.post({ by: "dan", inReplyTo: statuses.p6.id, text: "@ivan !submit @curate #fedi" });
    // The notifications page answers; looking up the status it replies to fails past the retries.
    fake.failPath(`/api/v1/statuses/${statuses.p6.id}`, 503, "Service Unavailable", 3);
    const calls = notificationCalls().length;
    await expect(run()).rejects.toThrow(/Mastodon API answered 503/);
    expect(notificationCalls().length).toBe(calls + 1);
    expect(await cursor()).toBe(saved);
    expect(await linksOf("p6")).toEqual([]);
    await run();
    expect((await linksOf("p6")).map((l) => l.feedId)).toEqual(["fedi"]);
    expect(await cursor()).toBe(fake.newestNotificationId());
  });

  it("skips malformed notifications and statuses, logs them, and stores the rest", async () => {
    fake.rawNotification({
      type: "mention",
      created_at: "2026-11-21T10:00:00.000Z",
      status: { id: "1", content: 42 },
    });
    fake.rawNotification({ type: "mention", status: "not a status" });
    fake.rawNotification({ id: 17, type: "mention" });
    statuses.m10 = fake.post({ by: "dan", text: "!submit @curate #fedi still read" });
    const lines = logLines.length;
    expect((await run()).read).toBe(1);
    expect((await linksOf("m10")).map((l) => l.feedId)).toEqual(["fedi"]);
    const logged = logLines.slice(lines).join("\n");
    expect(logged).toMatch(/malformed Mastodon status skipped/);
    expect(logged).toMatch(/malformed Mastodon notification skipped/);
    expect(await cursor()).toBe(fake.newestNotificationId());
  });
  it("stops at its page bound and reads the rest next pass, leaving no gap", async () => {
    const bounded = new MastodonMentionSource(client, { pageSize: 2, maxPages: 2, logger });
    for (const n of [1, 2, 3, 4, 5]) {
      statuses[`b${n}`] = fake.post({ by: "dan", text: `!submit @curate #fedi backlog ${n}` });
    }
    const first = await runMentionIntake(server.db, bounded, logger);
    expect(first.read).toBe(4);
    expect(await linksOf("b4")).toHaveLength(1);
    expect(await linksOf("b5")).toEqual([]);
    const second = await runMentionIntake(server.db, bounded, logger);
    expect(second.read).toBe(1);
    expect(await linksOf("b5")).toHaveLength(1);
    expect(await cursor()).toBe(fake.newestNotificationId());
  });
});

describe("the Mastodon source's set-up", () => {
  it("asks the instance who the bot is when its account is not configured", async () => {
    const unnamed = new MastodonMentionSource(new MastodonClient({ baseUrl: fake.url, accessToken: TOKEN }));
    expect(unnamed.botHandle).not.toMatch(/^curate@/);
    const before = fake.requests.filter((r) => r.path.endsWith("/verify_credentials")).length;
    const { posts } = await unnamed.fetchMentions(null);
    // Without a local domain the API's host name is the instance's.
    expect(unnamed.botHandle).toBe("curate@127.0.0.1");
    expect(posts.find((p) => p.id === statuses.m7.uri)?.text).toBe(
      "!submit @curate@127.0.0.1 #fedi a thought worth keeping",
    );
    await unnamed.fetchMentions(null);
    expect(fake.requests.filter((r) => r.path.endsWith("/verify_credentials")).length - before).toBe(1);
  });

  it("is registered from the environment, and only with an instance and a token", () => {
    const mention = server.intake.mentionSources.find((s) => s.platform === "mastodon");
    expect(mention).toMatchObject({ key: CURSOR_KEY, botHandle: `curate@${DOMAIN}` });
    expect(server.intake.searchSourceFor("@curate/mastodon-source")).not.toBeNull();
    const without = createIntake(server.db, { ...server.env, MASTODON_ACCESS_TOKEN: undefined }, logger, {
      telemetry: server.telemetry,
    });
    expect(without.mentionSources.some((s) => s.platform === "mastodon")).toBe(false);
    expect(without.searchSourceFor("@curate/mastodon-source")).toBeNull();
    const dataDir = mkdtempSync(join(tmpdir(), "curate-env-"));
    expect(() => loadEnv({ NODE_ENV: "test", DATA_DIR: dataDir, MASTODON_ACCESS_TOKEN: "t" })).toThrow(
      /MASTODON_BASE_URL: required with MASTODON_ACCESS_TOKEN/,
    );
  });

  it("refuses a bad token as the instance's answer, not as an empty page", async () => {
    const wrong = new MastodonMentionSource(
      new MastodonClient({ baseUrl: fake.url, accessToken: "wrong", localDomain: DOMAIN }),
    );
    await expect(wrong.fetchMentions(null)).rejects.toThrow(/401: The access token is invalid/);
  });
});

describe("Mastodon hashtag timelines as a feed source", () => {
  it("stores the tag's new public statuses as pending submissions of the feed, once", async () => {
    await insertFeed(server.db, {
      id: "fedidev",
      config: {
        id: "fedidev",
        name: "FediDev",
        description: "Building for the fediverse",
        sources: [
          {
            plugin: "@curate/mastodon-source",
            search: [{ searchId: "tag", query: "#FediDev", pageSize: 2 }],
          },
        ],
      },
    });
    statuses.t1 = fake.post({ by: "kim@fosstodon.org", text: "Shipping a new client today #FediDev" });
    statuses.t2 = fake.post({ by: "lee", text: "Quiet tag, wrong topic #Gardening" });
    statuses.t3 = fake.post({ by: "lee", text: "Unlisted thoughts #FediDev", visibility: "unlisted" });
    statuses.t4 = fake.post({
      by: "max",
      text: "Link previews explained https://example.org/previews #fedidev",
    });
    statuses.t5 = fake.post({
      by: "nia@hachyderm.io",
      text: "Testing federation locally #FediDev",
      spoiler: "meta",
    });
    const now = new Date();
    const first = await runFeedSources(server.db, server.intake, logger, now);
    expect(first.stored).toBe(3);
    const stored = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.feedId, "fedidev"))
      .orderBy(asc(submissionFeeds.submissionId));
    expect(stored.map((l) => [l.submissionId, l.status, l.curatorId]).sort()).toEqual(
      ["t1", "t4", "t5"].map((name) => [key(name), "pending", "source:feed:fedidev:0:tag"]).sort(),
    );
    const [t5] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key("t5")));
    expect(t5).toMatchObject({
      content: "meta\n\nTesting federation locally #FediDev",
      username: "nia@hachyderm.io",
    });

    statuses.t6 = fake.post({ by: "kim@fosstodon.org", text: "Follow-up on the client #FediDev" });
    const later = await runFeedSources(
      server.db,
      server.intake,
      logger,
      new Date(now.getTime() + 10 * 60_000),
    );
    expect(later.stored).toBe(1);
    const tagCalls = fake.requests.filter((r) => r.path === "/api/v1/timelines/tag/FediDev");
    expect(tagCalls.at(-1)?.query.get("min_id")).toMatch(/^\d+$/);
    const again = await runFeedSources(
      server.db,
      server.intake,
      logger,
      new Date(now.getTime() + 20 * 60_000),
    );
    expect(again.stored).toBe(0);
  });
});
