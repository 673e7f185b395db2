import { Writable } from "node:stream";
import { feedConfigSchema, submissionKey } from "@curate/core";
import { eq, like, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeFeeds } from "../../test/fakes/rss-feed.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { BlockedUrlError } from "../clients/outbound.ts";
import { sourceCursors, submissionFeeds, submissions } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { RssSearchSource } from "../sources/rss.ts";
import { runFeedSources } from "./feed-sources.ts";
import type { Intake } from "./runtime.ts";

const BLOG = "/blog/feed.xml";
const ZK = "/zk/atom.xml";
const MICRO = "/micro/feed.json";
const INTERVAL = 60_000;

let server: TestServer;
let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let urls: Record<"blog" | "zk" | "micro", string>;
let intake: Intake;
// Runs ahead of the real clock a polling interval per pass, so items published "now" are always in its past.
let clock = new Date();
const waits: number[] = [];
// biome-ignore lint/suspicious/noExplicitAny: log lines are checked by assertion
const logs: any[] = [];
const logger = pino(
  { level: "warn" },
  new Writable({
    write(line, _encoding, done) {
      logs.push(JSON.parse(String(line)));
      done();
    },
  }),
);

/** One pass of every feed's sources, a polling interval after the last. */
async function pass() {
  clock = new Date(clock.getTime() + INTERVAL);
  return runFeedSources(server.db, intake, logger, clock);
}

const key = (search: string) => `feed:chain:0:${search}`;

async function storedBy(search: string) {
  return server.db
    .select({
      id: submissions.tweetId,
      platform: submissions.platform,
      text: submissions.content,
      username: submissions.username,
      displayName: submissions.authorDisplayName,
      url: submissions.url,
      media: submissions.media,
      createdAt: submissions.createdAt,
      status: submissionFeeds.status,
      feedId: submissionFeeds.feedId,
      curatorUsername: submissionFeeds.curatorUsername,
    })
    .from(submissionFeeds)
    .innerJoin(submissions, eq(submissions.tweetId, submissionFeeds.submissionId))
    .where(eq(submissionFeeds.curatorId, `source:${key(search)}`))
    .orderBy(submissions.createdAt);
}

async function cursorOf(search: string) {
  const [row] = await server.db
    .select()
    .from(sourceCursors)
    .where(eq(sourceCursors.sourceKey, key(search)));
  return row;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

beforeAll(async () => {
  feeds = await startFakeFeeds();
  urls = {
    blog: feeds.publish(BLOG, "rss", "Rollups & Friends"),
    zk: feeds.publish(ZK, "atom", "Zero Knowledge Weekly"),
    micro: feeds.publish(MICRO, "json", "Micro"),
  };
  server = await startTestServer({ PRIVATE_HOSTS_ALLOWED: "127.0.0.1" });
  // The deployment's own adapter, with a test clock and recorded waits so backoff is checked, not slept through.
  const rss = new RssSearchSource({
    allowedHosts: ["127.0.0.1"],
    logger,
    now: () => clock,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  intake = { ...server.intake, searchSourceFor: (plugin) => (plugin === "@curate/rss-source" ? rss : null) };
  await insertFeed(server.db, {
    id: "chain",
    config: {
      id: "chain",
      name: "Chain",
      description: "d",
      pollingIntervalMs: INTERVAL,
      sources: [
        {
          plugin: "@curate/rss-source",
          search: [
            { searchId: "blog", url: urls.blog },
            // Configs written before `url` existed name the feed in `query`.
            { searchId: "zk", query: urls.zk },
            { searchId: "micro", url: urls.micro },
          ],
        },
      ],
    },
  });

  feeds.add(BLOG, {
    id: "4127",
    title: "Sequencers & the road ahead",
    link: "https://blog.example.org/sequencers/",
    html: "<p>It&#8217;s time for <strong>shared</strong> sequencing.</p><script>alert(1)</script>",
    author: "Ada Lovelace",
    published: minutesAgo(90),
    image: { url: "https://blog.example.org/diagram.png", type: "image/png" },
  });
  feeds.add(BLOG, {
    id: "4128",
    title: "Fraud proofs, live",
    link: "https://blog.example.org/fraud-proofs/",
    html: "<p>Finally &amp; at last.</p>",
    published: minutesAgo(30),
  });
  feeds.add(ZK, {
    id: "tag:zk.example.com,2026:issue-12",
    title: "Issue 12: 1 < 2",
    link: "https://zk.example.com/issues/12",
    html: "<p>Recursion<br>and folding.</p>",
    author: "Grace",
    published: minutesAgo(60),
  });
  feeds.add(MICRO, {
    id: "https://micro.example.com/2026/03/01/hello",
    title: "A greeting",
    link: "https://micro.example.com/2026/03/01/hello",
    html: "<p>Hello &lt;world&gt;</p>",
    published: minutesAgo(45),
  });
});

afterAll(async () => {
  await server?.close();
  await feeds?.close();
});

beforeEach(() => {
  logs.length = 0;
  waits.length = 0;
});

describe("RSS, Atom and JSON Feed sources", () => {
  it("turns each format's items into pending submissions of the feed, curated by the source", async () => {
    expect((await pass()).stored).toBe(4);

    const blog = await storedBy("blog");
    expect(blog).toEqual([
      expect.objectContaining({
        id: submissionKey("rss", `${urls.blog}#4127`),
        platform: "rss",
        text: "Sequencers & the road ahead\n\nIt\u2019s time for shared sequencing.",
        username: "Ada Lovelace",
        displayName: "Ada Lovelace",
        url: "https://blog.example.org/sequencers/",
        media: [{ url: "https://blog.example.org/diagram.png", type: "image", alt: null }],
        status: "pending",
        feedId: "chain",
        curatorUsername: null,
      }),
      expect.objectContaining({
        text: "Fraud proofs, live\n\nFinally & at last.",
        username: "Rollups & Friends",
      }),
    ]);
    expect(await storedBy("zk")).toEqual([
      expect.objectContaining({
        id: submissionKey("rss", "tag:zk.example.com,2026:issue-12"),
        platform: "rss",
        text: "Issue 12: 1 < 2\n\nRecursion\nand folding.",
        username: "Grace",
        url: "https://zk.example.com/issues/12",
      }),
    ]);
    expect(await storedBy("micro")).toEqual([
      expect.objectContaining({
        text: "A greeting\n\nHello <world>",
        username: "Micro",
        url: "https://micro.example.com/2026/03/01/hello",
      }),
    ]);

    const cursor = JSON.parse((await cursorOf("blog")).cursor ?? "");
    expect(cursor).toEqual({
      etag: expect.stringMatching(/^"[0-9a-f]{40}"$/),
      lastModified: expect.stringMatching(/GMT$/),
      newest: { id: `${urls.blog}#4128`, date: expect.any(String) },
    });
  });

  it("asks again with the saved validators; a 304 stores nothing and keeps the cursor", async () => {
    const before = await cursorOf("blog");
    const sent = feeds.requests.length;
    expect((await pass()).stored).toBe(0);

    const asked = feeds.requests.slice(sent);
    expect(asked.map((request) => request.path).sort()).toEqual([BLOG, MICRO, ZK].sort());
    const blogRequest = asked.find((request) => request.path === BLOG)!;
    const saved = JSON.parse(before.cursor ?? "");
    expect(blogRequest.headers["if-none-match"]).toBe(saved.etag);
    expect(blogRequest.headers["if-modified-since"]).toBe(saved.lastModified);
    expect(feeds.answered.slice(sent).map((answer) => answer.status)).toEqual([304, 304, 304]);
    expect((await cursorOf("blog")).cursor).toBe(before.cursor);
  });

  it("adds a new item once, and a replay from no cursor stores nothing twice", async () => {
    feeds.add(BLOG, {
      id: "4129",
      title: "Based rollups",
      link: "https://blog.example.org/based/",
      published: minutesAgo(1),
    });
    expect((await pass()).stored).toBe(1);
    expect((await storedBy("blog")).map((row) => row.text)).toEqual([
      "Sequencers & the road ahead\n\nIt\u2019s time for shared sequencing.",
      "Fraud proofs, live\n\nFinally & at last.",
      "Based rollups",
    ]);
    expect((await pass()).stored).toBe(0);

    await server.db.delete(sourceCursors).where(like(sourceCursors.sourceKey, "feed:chain:%"));
    const sent = feeds.requests.length;
    expect((await pass()).stored).toBe(0);
    expect(feeds.requests.slice(sent).every((request) => !request.headers["if-none-match"])).toBe(true);
    expect(await storedBy("blog")).toHaveLength(3);
  });

  it("stores an item its document lists twice once, with one submission activity", async () => {
    const item = {
      id: "4129-bis",
      title: "Shared sequencing, revisited",
      link: "https://blog.example.org/revisited/",
      published: minutesAgo(0.8),
    };
    feeds.add(BLOG, item, item);
    expect((await pass()).stored).toBe(1);
    const stored = (await storedBy("blog")).filter((row) => row.text === item.title);
    expect(stored).toHaveLength(1);
    const [{ n }] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from activities where submission_id = ${stored[0].id}`,
    );
    expect(n).toBe(1);
  });

  it("skips and logs an unreadable item, storing the others", async () => {
    feeds.addUnreadableEntry(ZK);
    feeds.add(ZK, {
      id: "tag:zk.example.com,2026:issue-13",
      title: "Issue 13",
      link: "https://zk.example.com/issues/13",
      published: minutesAgo(0.5),
    });
    expect((await pass()).stored).toBe(1);
    expect((await storedBy("zk")).map((row) => row.text)).toEqual([
      "Issue 12: 1 < 2\n\nRecursion\nand folding.",
      "Issue 13",
    ]);
    expect(logs).toContainEqual(
      expect.objectContaining({ msg: "feed item has no id or no text; skipped", feed: urls.zk }),
    );
  });

  it("fails the search on a document that is not a feed, without moving its cursor", async () => {
    const before = await cursorOf("micro");
    feeds.serveRaw(MICRO, { body: "<!doctype html><p>We moved!</p>", contentType: "text/html" });
    expect((await pass()).stored).toBe(0);
    expect(logs).toContainEqual(expect.objectContaining({ msg: "feed source failed", search: key("micro") }));
    const after = await cursorOf("micro");
    expect(after.cursor).toBe(before.cursor);
    expect(after.updatedAt).toEqual(before.updatedAt);

    feeds.serveRaw(MICRO, null);
    feeds.add(MICRO, {
      id: "https://micro.example.com/2026/03/01/back",
      title: "Back",
      link: "https://micro.example.com/2026/03/01/back",
      published: minutesAgo(0.2),
    });
    expect((await pass()).stored).toBe(1);
  });

  it("refuses a document over the size limit", async () => {
    feeds.serveRaw(BLOG, {
      body: `<rss>${" ".repeat(5 * 1024 * 1024)}</rss>`,
      contentType: "application/rss+xml",
    });
    await pass();
    expect(logs).toContainEqual(
      expect.objectContaining({
        search: key("blog"),
        err: expect.objectContaining({ message: expect.stringContaining("5242880") }),
      }),
    );
    feeds.serveRaw(BLOG, null);
  });

  it("backs off on a 503 within the pass, honouring Retry-After, then stores", async () => {
    feeds.add(BLOG, {
      id: "4130",
      title: "After the outage",
      link: "https://blog.example.org/after/",
      published: minutesAgo(0.1),
    });
    feeds.answerNext({
      status: 503,
      headers: { "retry-after": "2", "content-type": "text/plain" },
      body: "busy",
    });
    expect((await pass()).stored).toBe(1);
    expect(waits).toEqual([2000]);
    expect((await storedBy("blog")).at(-1)?.text).toBe("After the outage");
  });

  it("leaves a feed that answered 429 alone until its Retry-After has passed", async () => {
    const limited = {
      status: 429,
      headers: { "retry-after": "300", "content-type": "text/plain" },
      body: "slow down",
    };
    const fetchesOf = (path: string) => feeds.requestsFor(path).length;
    // Two answers: the first attempt and its one retry within the pass (the retry's wait is capped).
    feeds.answerNext(limited, limited);
    const firstFetches = fetchesOf(BLOG);
    const before = await cursorOf("blog");
    await pass();
    expect(fetchesOf(BLOG)).toBe(firstFetches + 2);
    expect(logs).toContainEqual(expect.objectContaining({ msg: "feed source failed", search: key("blog") }));
    expect((await cursorOf("blog")).cursor).toBe(before.cursor);

    await pass();
    expect(fetchesOf(BLOG)).toBe(firstFetches + 2);

    clock = new Date(clock.getTime() + 300_000);
    await pass();
    expect(fetchesOf(BLOG)).toBe(firstFetches + 3);
    expect(feeds.answered.filter((answer) => answer.path === BLOG).at(-1)?.status).toBe(304);
  });

  it("follows a moved feed, checking every hop against the outbound guard", async () => {
    const source = new RssSearchSource({ allowedHosts: ["127.0.0.1"] });
    feeds.answerNext({ status: 301, headers: { location: urls.zk }, body: "" });
    const moved = await source.search({ url: urls.blog }, null);
    expect(moved.posts.length).toBeGreaterThan(0);
    expect(feeds.requests.at(-1)?.path).toBe(ZK);

    // A redirect to this machine under a name or an address the operator did not allow is refused, not asked.
    const port = new URL(feeds.url).port;
    for (const inside of [`http://localhost:${port}${ZK}`, `http://[::ffff:127.0.0.2]:${port}${ZK}`]) {
      feeds.answerNext({ status: 302, headers: { location: inside }, body: "" });
      const sent = feeds.requests.length;
      await expect(source.search({ url: urls.blog }, null), inside).rejects.toBeInstanceOf(BlockedUrlError);
      expect(feeds.requests.length).toBe(sent + 1);
    }

    feeds.answerNext(
      ...Array.from({ length: 6 }, () => ({ status: 302, headers: { location: urls.blog }, body: "" })),
    );
    await expect(source.search({ url: urls.blog }, null)).rejects.toThrow(/more than 5 times/);
  });

  it("reaches only public addresses unless the operator allows the host", async () => {
    const sent = feeds.requests.length;
    const source = new RssSearchSource({ allowedHosts: [] });
    await expect(source.search({ url: urls.blog }, null)).rejects.toBeInstanceOf(BlockedUrlError);
    expect(feeds.requests.length).toBe(sent);
  });

  it("is the deployment's rss-source, by name and alias", async () => {
    const source = server.intake.searchSourceFor("@curate/rss-source");
    expect(source).toBeInstanceOf(RssSearchSource);
    expect(server.intake.searchSourceFor("rss-feed")).toBe(source);
    const result = await source!.search({ url: urls.zk }, null);
    expect(result.posts.map((post) => post.platform)).toEqual(["rss", "rss"]);
  });

  it("takes the feed's address as an http(s) URL in the feed config", () => {
    const config = (url: string) => ({
      id: "f",
      name: "F",
      description: "d",
      sources: [{ plugin: "@curate/rss-source", search: [{ url }] }],
    });
    expect(feedConfigSchema.safeParse(config("https://blog.example.org/feed.xml")).success).toBe(true);
    expect(feedConfigSchema.safeParse(config("file:///etc/passwd")).success).toBe(false);
    expect(feedConfigSchema.safeParse(config(`https://e.example/${"a".repeat(2100)}`)).success).toBe(false);
  });
});

describe("angle brackets in a feed's text", () => {
  it("keeps words in angle brackets that are not markup, and drops the markup", async () => {
    const path = "/rust/feed.xml";
    const url = feeds.publish(path, "rss", "This Week in Rust");
    // The fake escapes the title once, as blogs do: <title>Rollups &amp; Vec&lt;T&gt;</title>.
    feeds.add(path, {
      id: "rust-1",
      title: "Rollups & Vec<T>",
      link: "https://rust.example.org/1",
      html: "<p>Use <code>Option&lt;String&gt;</code>, or Box<dyn Error> &amp; HashMap<K, V>.</p><p><b>Bold</b> <em>news</em></p>",
      published: minutesAgo(5),
    });
    feeds.add(path, {
      id: "rust-2",
      title: "<b>Markup</b> & Option<String>",
      link: "https://rust.example.org/2",
      published: minutesAgo(4),
    });
    await insertFeed(server.db, {
      id: "rusty",
      config: {
        id: "rusty",
        name: "Rusty",
        description: "d",
        pollingIntervalMs: INTERVAL,
        sources: [{ plugin: "@curate/rss-source", search: [{ searchId: "rust", url }] }],
      },
    });
    await pass();
    const stored = await server.db
      .select({ text: submissions.content })
      .from(submissionFeeds)
      .innerJoin(submissions, eq(submissions.tweetId, submissionFeeds.submissionId))
      .where(eq(submissionFeeds.curatorId, "source:feed:rusty:0:rust"))
      .orderBy(submissions.createdAt);
    expect(stored.map((row) => row.text)).toEqual([
      "Rollups & Vec<T>\n\nUse Option<String>, or Box<dyn Error> & HashMap<K, V>.\n\nBold news",
      "Markup & Option<String>",
    ]);
  });
});
