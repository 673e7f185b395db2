import { loadavg } from "node:os";
import { BlueskyClient } from "../apps/server/src/clients/bluesky.ts";
import { MastodonClient } from "../apps/server/src/clients/mastodon.ts";
import { createTelegramBotApi } from "../apps/server/src/clients/telegram-bot.ts";
import { XApiClient } from "../apps/server/src/clients/x-api.ts";
import type { Database } from "../apps/server/src/db/index.ts";
import { feeds, sourceCursors } from "../apps/server/src/db/schema.ts";
import { runFeedSources } from "../apps/server/src/intake/feed-sources.ts";
import type { IntakeRun } from "../apps/server/src/intake/service.ts";
import { runMentionIntake } from "../apps/server/src/intake/service.ts";
import { createLogger } from "../apps/server/src/logger.ts";
import { checkAllLogs } from "../apps/server/src/moderation-log/service.ts";
import { BlueskyMentionSource } from "../apps/server/src/sources/bluesky.ts";
import { MastodonMentionSource } from "../apps/server/src/sources/mastodon.ts";
import { RssSearchSource } from "../apps/server/src/sources/rss.ts";
import { TelegramMentionSource } from "../apps/server/src/sources/telegram.ts";
import type { MentionSource, SearchSource, SocialPost } from "../apps/server/src/sources/types.ts";
import { XMentionSource } from "../apps/server/src/sources/x.ts";
import { intakeTableCounts } from "../apps/server/test/factories.ts";
import { startFakeX } from "../apps/server/test/fake-x.ts";
import { startFakeBluesky } from "../apps/server/test/fakes/bluesky.ts";
import { startFakeMastodon } from "../apps/server/test/fakes/mastodon.ts";
import { startFakeFeeds } from "../apps/server/test/fakes/rss-feed.ts";
import { type FakeTelegramUser, startFakeTelegram } from "../apps/server/test/fakes/telegram.ts";
import { type Driver, openFreshDatabase, postgresReachable } from "./db.ts";

const env = process.env;
const ITEMS = Number(env.BENCH_MENTIONS ?? 10_000);
const DRIVERS = (env.BENCH_DRIVERS ?? "postgres").split(",").map((d) => d.trim());
const NETWORKS = ["x", "bluesky", "mastodon", "telegram", "rss"] as const;
type Network = (typeof NETWORKS)[number];
const WANTED = (env.BENCH_NETWORKS ?? NETWORKS.join(","))
  .split(",")
  .map((n) => n.trim())
  .filter(Boolean);
const DB_NAME = "curate_bench_intake";
const FEEDS = 10;
/** Items per RSS document: a blog's feed shows its latest posts, not its archive. */
const RSS_ITEMS_PER_DOCUMENT = 100;
const quiet = createLogger("silent");

const log = (message: string) => process.stdout.write(`${message}\n`);

/**
 * How one network's people post: the author of a post, a curator replying to it with `!submit`, an approver
 * replying to the curator's post with `!approve`. `Ref` is what a reply on that network points at.
 */
interface Poster<Ref> {
  post(author: string, text: string, replyTo?: Ref): Ref;
  handle(role: "author" | "curator" | "approver", n: number): string;
  submit(feed: number, note: string): string;
  approve: string;
}

/**
 * 80% submissions of fresh posts, 10% resubmissions of earlier posts to another feed, 10% approvals by the feed's
 * approver replying to a curator's submit post — the same mix on every network.
 */
function postMentions<Ref>(network: Poster<Ref>) {
  const submitted: Array<{ post: Ref; mention: Ref; feed: number }> = [];
  for (let i = 0; i < ITEMS; i++) {
    const kind = i % 10;
    if (kind === 8 && submitted.length) {
      const earlier = submitted[(i * 7919) % submitted.length];
      const feed = (earlier.feed + 1) % FEEDS;
      network.post(
        network.handle("curator", i % 500),
        network.submit(feed, `another angle ${i}`),
        earlier.post,
      );
    } else if (kind === 9 && submitted.length) {
      const earlier = submitted[(i * 104729) % submitted.length];
      network.post(network.handle("approver", earlier.feed), network.approve, earlier.mention);
    } else {
      const feed = i % FEEDS;
      const post = network.post(
        network.handle("author", i % 2000),
        `Post ${i}: a thread worth curating about topic ${i % 97}`,
      );
      const mention = network.post(
        network.handle("curator", i % 500),
        network.submit(feed, `notes for ${i}`),
        post,
      );
      submitted.push({ post, mention, feed });
    }
  }
}

/** What a network's pass did, and how long of it was spent reading the fake (requests, parsing, normalising). */
interface Measured extends IntakeRun {
  readSeconds: number;
}

/** One network set up on its fake: the first intake of every item, then a replay of the same items. */
interface Bench {
  approvers: Record<string, string[]>;
  feedSources?: (feed: number) => unknown[];
  intake(db: Database): Promise<Measured>;
  replay(db: Database): Promise<void>;
  close(): Promise<void>;
}

/** A mention source that keeps what it read (for the replay) and times its reads. */
function recording(source: MentionSource) {
  const posts: SocialPost[] = [];
  let readMs = 0;
  const recorder: MentionSource = {
    key: source.key,
    platform: source.platform,
    get botHandle() {
      return source.botHandle;
    },
    mentionOptional: source.mentionOptional,
    async fetchMentions(cursor) {
      const started = performance.now();
      const result = await source.fetchMentions(cursor);
      readMs += performance.now() - started;
      posts.push(...result.posts);
      return result;
    },
  };
  const replaySource: MentionSource = {
    key: `bench:replay:${source.key}`,
    platform: source.platform,
    get botHandle() {
      return source.botHandle;
    },
    mentionOptional: source.mentionOptional,
    fetchMentions: async () => ({ posts, cursor: null }),
  };
  return { recorder, replaySource, readSeconds: () => readMs / 1000 };
}

/** Passes until the source has nothing new (a source reads a bounded number of pages per pass). */
async function mentionBench(source: MentionSource, onePass: boolean) {
  const recorded = recording(source);
  return {
    async intake(db: Database): Promise<Measured> {
      const total: IntakeRun = { read: 0, submitted: 0, moderated: 0 };
      for (;;) {
        const run = await runMentionIntake(db, recorded.recorder, quiet);
        total.read += run.read;
        total.submitted += run.submitted;
        total.moderated += run.moderated;
        if (onePass || run.read === 0) break;
      }
      return { ...total, readSeconds: recorded.readSeconds() };
    },
    async replay(db: Database) {
      await runMentionIntake(db, recorded.replaySource, quiet);
    },
  };
}

async function xBench(): Promise<Bench> {
  const bot = "curatebot";
  const x = await startFakeX({ bearerToken: "bench-token", botUsername: bot });
  postMentions<string>({
    post: (author, text, replyTo) => x.post(author, text, replyTo),
    handle: (role, n) => `${role}_${n}`,
    submit: (feed, note) => `!submit @${bot} #feed${feed} ${note}`,
    approve: `@${bot} !approve looks right`,
  });
  const source = new XMentionSource(new XApiClient({ baseUrl: x.url, bearerToken: "bench-token" }), bot);
  return {
    approvers: { twitter: Array.from({ length: FEEDS }, (_, f) => `approver_${f}`) },
    ...(await mentionBench(source, false)),
    close: () => x.close(),
  };
}

async function blueskyBench(): Promise<Bench> {
  const bot = "curatebot.bsky.social";
  const fake = await startFakeBluesky({ handle: bot, appPassword: "bench-app-password" });
  postMentions<string>({
    post: (handle, text, replyTo) => fake.addPost({ handle, text, replyTo }),
    handle: (role, n) => `${role}-${n}.bsky.social`,
    submit: (feed, note) => `!submit @${bot} #feed${feed} ${note}`,
    approve: `@${bot} !approve looks right`,
  });
  const client = new BlueskyClient({
    serviceUrl: fake.url,
    identifier: bot,
    appPassword: "bench-app-password",
  });
  // A pass reads at most 100 pages of 100; a later pass re-reads its boundary, so one pass covers the bench.
  const source = new BlueskyMentionSource(client, bot, { pageSize: 100, maxPages: Math.ceil(ITEMS / 100) });
  return {
    approvers: { bluesky: Array.from({ length: FEEDS }, (_, f) => `approver-${f}.bsky.social`) },
    ...(await mentionBench(source, true)),
    close: () => fake.close(),
  };
}

async function mastodonBench(): Promise<Bench> {
  const domain = "mastodon.bench";
  const fake = await startFakeMastodon({ accessToken: "bench-token", botUsername: "curate", domain });
  postMentions<string>({
    post: (by, text, inReplyTo) => fake.post({ by, text, inReplyTo }).id,
    handle: (role, n) => `${role}_${n}`,
    submit: (feed, note) => `!submit @curate #feed${feed} ${note}`,
    approve: "@curate !approve looks right",
  });
  const client = new MastodonClient({ baseUrl: fake.url, accessToken: "bench-token", localDomain: domain });
  const source = new MastodonMentionSource(client, {
    botAcct: `curate@${domain}`,
    maxPages: Math.ceil(ITEMS / 40) + 1,
  });
  return {
    approvers: { mastodon: Array.from({ length: FEEDS }, (_, f) => `approver_${f}@${domain}`) },
    ...(await mentionBench(source, true)),
    close: () => fake.close(),
  };
}

async function telegramBench(): Promise<Bench> {
  const token = "7000000099:AAH-bench-bot-token-0123456789";
  const fake = await startFakeTelegram({ token, botUsername: "curate_bench_bot" });
  const chat = fake.chat({ type: "supergroup", title: "Bench Readers", username: "benchreaders" });
  const users = new Map<string, FakeTelegramUser>();
  const user = (name: string) => {
    let found = users.get(name);
    if (!found) {
      found = fake.user(name);
      users.set(name, found);
    }
    return found;
  };
  postMentions<Record<string, unknown>>({
    post: (author, text, replyTo) => fake.send(chat, user(author), { text, replyTo }).message,
    handle: (role, n) => `${role}_${n}`,
    submit: (feed, note) => `!submit #feed${feed} ${note}`,
    approve: "!approve looks right",
  });
  const source = new TelegramMentionSource({ api: createTelegramBotApi({ apiRoot: fake.apiRoot, token }) });
  return {
    approvers: { telegram: Array.from({ length: FEEDS }, (_, f) => `approver_${f}`) },
    // getUpdates hands over 100 updates a pass (the group's plain messages among them): passes until it is empty.
    ...(await mentionBench(source, false)),
    close: () => fake.close(),
  };
}

async function rssBench(): Promise<Bench> {
  const fake = await startFakeFeeds();
  const documents = Math.ceil(ITEMS / RSS_ITEMS_PER_DOCUMENT);
  const urls: string[] = [];
  let published = 0;
  const firstDate = Date.parse("2026-11-01T00:00:00.000Z");
  for (let d = 0; d < documents; d++) {
    const path = `/blog-${d}/feed.xml`;
    urls.push(fake.publish(path, "rss", `Blog ${d}`));
    const count = Math.min(RSS_ITEMS_PER_DOCUMENT, ITEMS - published);
    fake.add(
      path,
      ...Array.from({ length: count }, (_, i) => ({
        id: `blog-${d}-post-${i}`,
        title: `Post ${i} of blog ${d}`,
        link: `https://blog-${d}.example/posts/${i}`,
        html: `<p>A post worth curating about <a href="https://example.org/topic/${i % 97}">topic ${i % 97}</a>.</p>`,
        author: `Writer ${d}`,
        published: new Date(firstDate + (d * RSS_ITEMS_PER_DOCUMENT + i) * 60_000),
      })),
    );
    published += count;
  }
  const rss = new RssSearchSource({ allowedHosts: ["127.0.0.1"], logger: quiet });
  let readMs = 0;
  let read = 0;
  const timed: SearchSource = {
    async search(spec, cursor) {
      const started = performance.now();
      const result = await rss.search(spec, cursor);
      readMs += performance.now() - started;
      read += result.posts.length;
      return result;
    },
  };
  const intake = { searchSourceFor: () => timed };
  return {
    approvers: {},
    // Each feed reads its share of the blogs, one search per document.
    feedSources: (feed) => [
      {
        plugin: "@curate/rss-source",
        search: urls.filter((_, d) => d % FEEDS === feed).map((url) => ({ url })),
      },
    ],
    async intake(db) {
      const { stored } = await runFeedSources(db, intake, quiet);
      return { read, submitted: stored, moderated: 0, readSeconds: readMs / 1000 };
    },
    async replay(db) {
      // Without the cursors (validators, newest item) every document is fetched and every item offered again.
      await db.delete(sourceCursors);
      await runFeedSources(db, intake, quiet);
    },
    close: () => fake.close(),
  };
}

const BENCHES: Record<Network, () => Promise<Bench>> = {
  x: xBench,
  bluesky: blueskyBench,
  mastodon: mastodonBench,
  telegram: telegramBench,
  rss: rssBench,
};

interface Row {
  network: Network;
  driver: string;
  run: Measured;
  seconds: number;
  replaySeconds: number;
  rowsBefore: Record<string, number>;
  rowsAfter: Record<string, number>;
  check: { checked: number; broken: number };
  checkSeconds: number;
}

async function runOne(network: Network, driver: string): Promise<Row> {
  const bench = await BENCHES[network]();
  const { handle, dispose } = await openFreshDatabase(driver as Driver, DB_NAME);
  try {
    await handle.migrate();
    await handle.db.insert(feeds).values(
      Array.from({ length: FEEDS }, (_, i) => ({
        id: `feed${i}`,
        name: `Feed ${i}`,
        config: {
          id: `feed${i}`,
          name: `Feed ${i}`,
          description: "bench",
          moderation: {
            approvers: Object.fromEntries(
              Object.entries(bench.approvers).map(([platform, handles]) => [platform, [handles[i]]]),
            ),
          },
          ...(bench.feedSources ? { sources: bench.feedSources(i) } : {}),
        },
      })),
    );
    const started = performance.now();
    const run = await bench.intake(handle.db);
    const seconds = (performance.now() - started) / 1000;
    const rowsBefore = await intakeTableCounts(handle.db);
    const again = performance.now();
    await bench.replay(handle.db);
    const replaySeconds = (performance.now() - again) / 1000;
    const rowsAfter = await intakeTableCounts(handle.db);
    // Every feed's moderation log, recomputed as the worker's self-check does: intact, and how fast.
    const checking = performance.now();
    const check = await checkAllLogs(handle.db, quiet);
    const checkSeconds = (performance.now() - checking) / 1000;
    return { network, driver, run, seconds, replaySeconds, rowsBefore, rowsAfter, check, checkSeconds };
  } finally {
    await dispose();
    await bench.close();
  }
}

const rate = (items: number, seconds: number) =>
  Math.round(items / Math.max(seconds, 1e-9)).toLocaleString("en");

function table(rows: Row[]) {
  const head = [
    "network",
    "driver",
    "items",
    "links",
    "decisions",
    "total s",
    "read s",
    "store s",
    "items/s (all)",
    "items/s (store)",
    "replay: rows added",
    "replay s",
    "log entries",
    "log self-check",
  ];
  const body = rows.map((row) => {
    const store = row.seconds - row.run.readSeconds;
    const added = Object.entries(row.rowsAfter)
      .map(([table, count]) => count - (row.rowsBefore[table] ?? 0))
      .reduce((a, b) => a + b, 0);
    return [
      row.network,
      row.driver,
      row.run.read.toLocaleString("en"),
      row.run.submitted.toLocaleString("en"),
      row.run.moderated.toLocaleString("en"),
      row.seconds.toFixed(1),
      row.run.readSeconds.toFixed(1),
      store.toFixed(1),
      rate(row.run.read, row.seconds),
      rate(row.run.read, store),
      `${added} (${row.rowsAfter.submissions} posts, ${row.rowsAfter.links} links, ${row.rowsAfter.history} decisions kept)`,
      row.replaySeconds.toFixed(1),
      row.rowsAfter.log.toLocaleString("en"),
      `${row.check.broken ? `${row.check.broken} broken` : "intact"}, ${row.checkSeconds.toFixed(1)} s`,
    ];
  });
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, c) => cell.padEnd(widths[c])).join(" | ")} |`;
  log(line(head));
  log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of body) log(line(row));
}

async function main() {
  const networks = WANTED.filter((n): n is Network => (NETWORKS as readonly string[]).includes(n));
  const unknown = WANTED.filter((n) => !networks.includes(n as Network));
  if (unknown.length)
    throw new Error(`unknown BENCH_NETWORKS ${unknown.join(", ")}; known: ${NETWORKS.join(", ")}`);
  const drivers = [];
  for (const driver of DRIVERS) {
    if (driver === "postgres" && !(await postgresReachable())) log("PostgreSQL unreachable: skipped");
    else drivers.push(driver);
  }
  log(
    `intake of ${ITEMS.toLocaleString("en")} items per network from local fakes through the real adapters (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
  const rows: Row[] = [];
  for (const driver of drivers) {
    for (const network of networks) {
      const row = await runOne(network, driver);
      rows.push(row);
      log(`  ${network} on ${driver}: ${rate(row.run.read, row.seconds)} items/s`);
    }
  }
  log("");
  table(rows);
  log(
    `\nload average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
}

main().catch((error) => {
  process.stderr.write(`intake bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  if (error instanceof Error && error.cause) process.stderr.write(`cause: ${String(error.cause)}\n`);
  process.exit(1);
});
