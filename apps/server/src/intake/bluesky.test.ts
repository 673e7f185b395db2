import { submissionKey } from "@curate/core";
import { and, asc, eq } from "drizzle-orm";
import type { Logger } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, intakeTableCounts } from "../../test/factories.ts";
import { type FakeBluesky, startFakeBluesky } from "../../test/fakes/bluesky.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { BlueskyClient } from "../clients/bluesky.ts";
import { ExternalServiceError } from "../clients/http.ts";
import { moderationHistory, sourceCursors, submissionFeeds, submissions } from "../db/schema.ts";
import { BlueskyMentionSource } from "../sources/bluesky.ts";
import { runFeedSources } from "./feed-sources.ts";
import { runMentionIntake } from "./service.ts";

const BOT = "curatebot.bsky.social";
const PASSWORD = "abcd-efgh-ijkl-mnop";
const SUBMIT = `!submit @${BOT}`;

let fake: FakeBluesky;
let server: TestServer;
let client: BlueskyClient;
let source: BlueskyMentionSource;
const waits: number[] = [];
const warnings: Array<{ fields: unknown; message: string }> = [];
const logger = {
  warn: (fields: unknown, message: string) => warnings.push({ fields, message }),
  debug: () => {},
  info: () => {},
} as unknown as Logger;
const uris: Record<string, string> = {};

const key = (uri: string) => submissionKey("bluesky", uri);
const run = (from = source) => runMentionIntake(server.db, from, logger);
/** The bot's mention and reply notifications, newest first, as listNotifications pages them. */
const mentions = () => fake.notifications().filter((n) => n.reason !== "like");
const calls = (method: string) => fake.requests.filter((r) => r.path === `/xrpc/${method}`);
const savedCursor = async () => {
  const [row] = await server.db.select().from(sourceCursors).where(eq(sourceCursors.sourceKey, source.key));
  return row ? (JSON.parse(row.cursor ?? "null") as { seen: string; backlog?: unknown }) : null;
};
const linkOf = async (uri: string, feedId: string) => {
  const [row] = await server.db
    .select()
    .from(submissionFeeds)
    .where(and(eq(submissionFeeds.submissionId, key(uri)), eq(submissionFeeds.feedId, feedId)));
  return row;
};

const tableCounts = () => intakeTableCounts(server.db);

beforeAll(async () => {
  fake = await startFakeBluesky({ handle: BOT, appPassword: PASSWORD });
  server = await startTestServer({
    BOT_HANDLE: "curatebot",
    BLUESKY_SERVICE_URL: fake.url,
    BLUESKY_IDENTIFIER: `@${BOT}`,
    BLUESKY_APP_PASSWORD: PASSWORD,
  });
  client = new BlueskyClient({
    serviceUrl: fake.url,
    identifier: BOT,
    appPassword: PASSWORD,
    retries: 2,
    logger,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  // Pages of 3 so a handful of notifications crosses page boundaries.
  source = new BlueskyMentionSource(client, BOT, { pageSize: 3, logger });
  await insertFeed(server.db, {
    id: "ai",
    approvers: { bluesky: ["@Approver-Amy.bsky.social"], twitter: ["cat.bsky.social"] },
    blacklist: { bluesky: ["spammer.bsky.social"] },
  });
  await insertFeed(server.db, { id: "web3" });

  // The link's text is the app's short form of it, after emoji whose UTF-8 bytes the facet indexes count.
  const article = "https://example.com/articles/2026/long-form-curation-on-every-network?ref=bsky";
  const text = "🦋 Big news 👩‍💻: example.com/articles/2026/lo... worth your time";
  uris.p1 = fake.addPost({
    handle: "author-one.bsky.social",
    displayName: "Author One ✍️",
    text,
    facets: [
      {
        index: { byteStart: 27, byteEnd: 58 },
        features: [{ $type: "app.bsky.richtext.facet#link", uri: article }],
      },
    ],
    images: [{ alt: "Chart: curators per network" }, { alt: "" }],
  });
  uris.p2 = fake.addPost({
    handle: "author-two.bsky.social",
    text: "Zero-knowledge proofs, explained slowly",
  });
  uris.m1 = fake.addPost({ handle: "cat.bsky.social", text: `${SUBMIT} #ai must read`, replyTo: uris.p1 });
  uris.m2 = fake.addPost({ handle: "spammer.bsky.social", text: `${SUBMIT} #ai buy now`, replyTo: uris.p2 });
  uris.m3 = fake.addPost({
    handle: "dan.bsky.social",
    text: `${SUBMIT} #web3 my own photo`,
    images: [{ alt: "A heron on a harbour post" }],
    quote: uris.p2,
  });
  uris.m4 = fake.addPost({ handle: "nobody.bsky.social", text: `@${BOT} !approve`, replyTo: uris.m1 });
  uris.m5 = fake.addPost({
    handle: "approver-amy.bsky.social",
    text: `@${BOT} !approve #ai nice one`,
    replyTo: uris.m1,
  });
  fake.addNotification({ reason: "like", uri: uris.m1, author: fake.account("fan.bsky.social") });
});

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe("Bluesky mention intake through the AT Protocol", () => {
  it("logs in with the app password, pages the bot's mentions and replies, and fetches parents in one call", async () => {
    const result = await run();
    expect(result.read).toBe(5);
    expect(fake.logins).toBe(1);
    const [login] = calls("com.atproto.server.createSession");
    expect(login.body).toEqual({ identifier: BOT, password: PASSWORD });

    const pages = calls("app.bsky.notification.listNotifications");
    expect(pages.length).toBe(2);
    expect(pages[0].query.getAll("reasons")).toEqual(["mention", "reply"]);
    expect(pages[0].query.get("limit")).toBe("3");
    expect(pages[1].query.get("cursor")).toBe(mentions()[2].indexedAt);
    expect(pages[0].headers.authorization).toMatch(/^Bearer access\./);

    const parents = calls("app.bsky.feed.getPosts");
    expect(parents.length).toBe(1);
    expect(parents[0].query.getAll("uris").sort()).toEqual([uris.p1, uris.p2].sort());
  });

  it("submits a !submit reply's parent as its author wrote it: full link, author, images with alt, bsky.app URL", async () => {
    const [post] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(uris.p1)));
    const [, did, rkey] = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/(.+)$/.exec(uris.p1) ?? [];
    expect(post).toMatchObject({
      platform: "bluesky",
      userId: did,
      username: "author-one.bsky.social",
      authorDisplayName: "Author One ✍️",
      content:
        "🦋 Big news 👩‍💻: https://example.com/articles/2026/long-form-curation-on-every-network?ref=bsky worth your time",
      url: `https://bsky.app/profile/author-one.bsky.social/post/${rkey}`,
      curatorNotes: "must read",
      curatorTweetId: key(uris.m1),
    });
    const images = fake.post(uris.p1).view.embed.images;
    expect(post.media).toEqual([
      { url: images[0].fullsize, type: "image", alt: "Chart: curators per network" },
      { url: images[1].fullsize, type: "image", alt: null },
    ]);
    expect(post.createdAt.toISOString()).toBe(fake.post(uris.p1).record.createdAt);
  });

  it("submits a post that replies to nothing as itself, the images beside its quote read from the record's blobs", async () => {
    const [own] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(uris.m3)));
    const { embed } = fake.post(uris.m3).record;
    expect(embed.$type).toBe("app.bsky.embed.recordWithMedia");
    const blob = embed.media.images[0].image.ref.$link;
    const did = fake.account("dan.bsky.social").did;
    expect(own.content).toBe(`${SUBMIT} #web3 my own photo`);
    expect(own.media).toEqual([
      {
        url: `https://cdn.bsky.app/img/feed_fullsize/plain/${did}/${blob}@jpeg`,
        type: "image",
        alt: "A heron on a harbour post",
      },
    ]);
    expect(await linkOf(uris.m3, "web3")).toMatchObject({ status: "pending", curatorNotes: "my own photo" });
  });

  it("lets an approver listed under bluesky approve by reply, and no one else; a blacklisted curator submits nothing", async () => {
    expect(await linkOf(uris.p1, "ai")).toMatchObject({ status: "approved" });
    const history = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, key(uris.p1)))
      .orderBy(asc(moderationHistory.id));
    expect(history.map((h) => [h.feedId, h.action, h.source, h.note])).toEqual([
      ["ai", "approve", "platform_comment", "nice one"],
    ]);
    expect(history[0].moderatorAccountId).toContain("approver-amy.bsky.social");
    const spam = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(uris.p2)));
    expect(spam).toEqual([]);
  });

  it("saves the newest notification time as the cursor once everything is stored", async () => {
    expect(await savedCursor()).toEqual({ seen: mentions()[0].indexedAt });
  });

  it("stores nothing twice when the same pages are read again, and a quiet pass reads only the boundary", async () => {
    const before = await tableCounts();
    await server.db.delete(sourceCursors);
    expect((await run()).read).toBe(5);
    expect(await tableCounts()).toEqual(before);
    const pagesBefore = calls("app.bsky.notification.listNotifications").length;
    expect((await run()).read).toBe(1);
    expect(calls("app.bsky.notification.listNotifications").length - pagesBefore).toBe(1);
    expect(await tableCounts()).toEqual(before);
  });

  it("waits out a 429 as its ratelimit-reset says, then reads", async () => {
    uris.p3 = fake.addPost({ handle: "author-three.bsky.social", text: "Benchmarks for small models" });
    uris.m6 = fake.addPost({ handle: "eve.bsky.social", text: `${SUBMIT} #ai late one`, replyTo: uris.p3 });
    fake.failNext(fake.rateLimited(30), { method: "app.bsky.notification.listNotifications" });
    fake.failNext(fake.serverError(503), { method: "app.bsky.feed.getPosts" });
    const before = waits.length;
    await run();
    expect(waits.slice(before)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(waits[before]).toBeGreaterThan(25_000);
    expect(await linkOf(uris.p3, "ai")).toMatchObject({ status: "pending", curatorNotes: "late one" });
  });

  it("skips malformed notifications and keeps the rest of their page", async () => {
    uris.p4 = fake.addPost({ handle: "author-four.bsky.social", text: "Rollups compared" });
    uris.m7 = fake.addPost({ handle: "fay.bsky.social", text: `${SUBMIT} #web3 first`, replyTo: uris.p4 });
    const broken = `at://${fake.account("odd.bsky.social").did}/app.bsky.feed.post/3lbroken00000`;
    fake.addNotification({
      uri: broken,
      cid: fake.post(uris.m7).view.cid,
      author: fake.account("odd.bsky.social"),
      reason: "mention",
      record: { $type: "app.bsky.feed.post", text: `${SUBMIT} #web3`, createdAt: "last tuesday" },
      isRead: false,
      labels: [],
    });
    // No author at all: outside the lexicon, so the SDK refuses the page and intake reads it entry by entry.
    fake.addNotification({ uri: `${broken}x`, reason: "mention", record: {}, isRead: false });
    uris.m8 = fake.addPost({ handle: "gus.bsky.social", text: `${SUBMIT} #ai second`, replyTo: uris.p4 });
    const result = await run();
    expect(result.submitted).toBe(2);
    expect(await linkOf(uris.p4, "web3")).toMatchObject({ curatorNotes: "first" });
    expect(await linkOf(uris.p4, "ai")).toMatchObject({ curatorNotes: "second" });
    const skipped = warnings.filter((w) => w.message.startsWith("malformed Bluesky notification"));
    expect(skipped.map((w) => (w.fields as { uri: string }).uri)).toEqual(
      expect.arrayContaining([broken, `${broken}x`]),
    );
    expect(await savedCursor()).toEqual({ seen: mentions()[0].indexedAt });
  });

  it("keeps the cursor when a pass fails part-way, and the next pass stores what it missed", async () => {
    const before = await savedCursor();
    uris.p5 = fake.addPost({ handle: "author-five.bsky.social", text: "Sequencers, decentralised" });
    uris.m9 = fake.addPost({ handle: "hal.bsky.social", text: `${SUBMIT} #web3 keep me`, replyTo: uris.p5 });
    fake.failNext(fake.serverError(502), { method: "app.bsky.feed.getPosts", times: 3 });
    const failure = await run().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect((failure as ExternalServiceError).retryable).toBe(true);
    expect(await savedCursor()).toEqual(before);
    expect(await linkOf(uris.p5, "web3")).toBeUndefined();
    await run();
    expect(await linkOf(uris.p5, "web3")).toMatchObject({ status: "pending", curatorNotes: "keep me" });
    expect(await savedCursor()).toEqual({ seen: mentions()[0].indexedAt });
  });

  it("refreshes an expired session, and logs in again when the refresh token has expired too", async () => {
    fake.expireTokens();
    await run();
    expect(fake.refreshes).toBe(1);
    expect(fake.logins).toBe(1);
    fake.expireTokens({ refreshToo: true });
    uris.m10 = fake.addPost({
      handle: "ivy.bsky.social",
      text: `${SUBMIT} #web3 after login`,
      replyTo: uris.p2,
    });
    await run();
    expect(fake.logins).toBe(2);
    expect(await linkOf(uris.p2, "web3")).toMatchObject({ curatorNotes: "after login" });
  });

  it("reads a backlog larger than a pass over several passes, losing nothing", async () => {
    const small = new BlueskyMentionSource(client, BOT, { pageSize: 2, maxPages: 1, logger });
    const backlog = ["one", "two", "three", "four", "five"].map((word) =>
      fake.addPost({ handle: "jo.bsky.social", text: `${SUBMIT} #web3 backlog ${word}` }),
    );
    const seenBefore = (await savedCursor())?.seen;
    const reads = [];
    for (let pass = 0; pass < 3; pass++) reads.push((await run(small)).read);
    expect(reads).toEqual([2, 2, 2]);
    for (const uri of backlog) expect(await linkOf(uri, "web3")).toMatchObject({ status: "pending" });
    const cursor = await savedCursor();
    expect(cursor).toEqual({ seen: mentions()[0].indexedAt });
    expect(cursor?.seen).not.toBe(seenBefore);
  });

  it("is registered by the server when BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD are set", async () => {
    const registered = server.intake.mentionSources.find((s) => s.platform === "bluesky");
    expect(registered).toMatchObject({ botHandle: BOT, key: source.key });
    uris.m11 = fake.addPost({
      handle: "kim.bsky.social",
      text: `${SUBMIT} #ai via the server`,
      replyTo: uris.p5,
    });
    if (!registered) throw new Error("no Bluesky source");
    expect((await server.intake.runPass(registered)).submitted).toBe(1);
  });
});

describe("Bluesky search as a feed source", () => {
  it("stores searchPosts hits as the feed's pending submissions, latest first, and only new ones after", async () => {
    await insertFeed(server.db, {
      id: "rollups",
      config: {
        id: "rollups",
        name: "Rollups",
        sources: [
          { plugin: "@curate/bluesky-source", search: [{ query: "optimistic rollups", pageSize: 2 }] },
        ],
      } as never,
    });
    const hits = ["fraud proofs", "sequencer design", "bridges"].map((topic) =>
      fake.addPost({ handle: "lee.bsky.social", text: `Optimistic rollups and ${topic}` }),
    );
    fake.addPost({ handle: "lee.bsky.social", text: "Nothing about that" });
    const now = new Date();
    expect((await runFeedSources(server.db, server.intake, logger, now)).stored).toBe(3);
    const searches = calls("app.bsky.feed.searchPosts");
    expect(searches.map((r) => [r.query.get("q"), r.query.get("sort"), r.query.get("cursor")])).toEqual([
      ["optimistic rollups", "latest", null],
      ["optimistic rollups", "latest", "2"],
    ]);
    for (const uri of hits) {
      expect(await linkOf(uri, "rollups")).toMatchObject({
        status: "pending",
        curatorId: expect.stringMatching(/^source:feed:rollups:/),
      });
    }

    const later = fake.addPost({ handle: "lee.bsky.social", text: "Optimistic rollups, a year on" });
    const next = new Date(now.getTime() + 10 * 60_000);
    expect((await runFeedSources(server.db, server.intake, logger, next)).stored).toBe(1);
    expect(calls("app.bsky.feed.searchPosts").at(-1)?.query.get("since")).toBe(
      fake.post(hits[2]).view.indexedAt,
    );
    expect(await linkOf(later, "rollups")).toMatchObject({ status: "pending" });
  });
});
