/**
 * RSS benchmark: `/rss/{feedId}/rss.xml` of a 500-item feed against a route on the same server that answers the same
 * bytes from memory (the payload limit) and against `/api/health`, with and without ETag revalidation (304), per
 * driver, in one run.
 * Usage: npm run bench:rss
 * (env: BENCH_DRIVERS, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_ROUNDS, BENCH_DATABASE_URL)
 */
import autocannon from "autocannon";
import { Hono } from "hono";
import { feeds, rssItems } from "../apps/server/src/db/schema.ts";
import { ADMIN_URL, type Driver, openFreshDatabase, postgresReachable, startBenchApp } from "./db.ts";

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 1);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const ITEMS = 500;
const FEED_ID = "benchfeed";
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const PAYLOAD_PATH = "/bench/rss-payload";
const GOAL_FEED = 0.8;
const GOAL_304 = 0.9;
const CONNECTION_HEADERS = ["content-length", "connection", "keep-alive", "date", "transfer-encoding"];

interface Row {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  /** Answers with the status the row expects (200, or 304 for revalidations), and all others. */
  expected: number;
  unexpected: number;
  errors: number;
  mbPerSec: number;
}

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

const WORDS =
  "solar grid battery model paper release protocol validator design research open wind policy chain proof".split(
    " ",
  );

/** A post-sized item: a headline, a few sentences, two categories, an image. */
function itemRow(index: number) {
  const words = (count: number) =>
    Array.from({ length: count }, (_, i) => WORDS[(index * 7 + i * 3) % WORDS.length]);
  const text = `${words(40).join(" ")}. ${words(30).join(" ")} & more <details>.`;
  return {
    feedId: FEED_ID,
    guid: `https://x.com/author${index % 50}/status/${1_900_000_000_000_000_000n + BigInt(index)}`,
    title: `author${index % 50} on X: ${words(12).join(" ")}`,
    link: `https://x.com/author${index % 50}/status/${1_900_000_000_000_000_000n + BigInt(index)}`,
    description: text,
    content: `${text}\n\n${words(25).join(" ")}`,
    image: index % 3 === 0 ? `https://pbs.twimg.com/media/img${index}.jpg` : null,
    platform: "twitter",
    categories: [FEED_ID, WORDS[index % WORDS.length]],
    author: `author${index % 50}`,
    pubDate: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000),
    curator: `curator${index % 20}`,
    approver: "moderator.near",
    curatorNote: index % 4 === 0 ? "Worth a read" : null,
    sourceUrl: `https://x.com/author${index % 50}/status/${1_900_000_000_000_000_000n + BigInt(index)}`,
  };
}

async function fire(url: string, headers: Record<string, string>, seconds: number) {
  // The load generator runs in a worker thread so it does not share the event loop with the server.
  return autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, workers: 1 });
}

async function measure(
  name: string,
  url: string,
  headers: Record<string, string>,
  status: 200 | 304,
): Promise<Row> {
  const probe = await fetch(url, { headers });
  if (probe.status !== status) throw new Error(`${url} answered ${probe.status}, not ${status}`);
  await probe.arrayBuffer();
  if (WARMUP > 0) await fire(url, headers, WARMUP);
  const r = await fire(url, headers, DURATION);
  const expected = status === 304 ? r.non2xx : r["2xx"];
  const row: Row = {
    name,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    expected,
    unexpected: r.requests.total - expected,
    errors: r.errors + r.timeouts,
    mbPerSec: Math.round((r.throughput.average / 1_048_576) * 10) / 10,
  };
  log(
    `  ${name.padEnd(36)} ${String(row.requestsPerSec).padStart(6)} req/s  p99 ${row.p99} ms  ${row.mbPerSec} MB/s`,
  );
  return row;
}

async function runDriver(driver: Driver) {
  log(`\n== ${driver}: a feed of ${ITEMS} items`);
  const { handle, dispose } = await openFreshDatabase(driver, "curate_bench_rss");
  try {
    await handle.migrate();
    await handle.db.insert(feeds).values({
      id: FEED_ID,
      name: "Bench feed",
      description: "Five hundred items",
      config: {
        id: FEED_ID,
        name: "Bench feed",
        outputs: {
          stream: {
            enabled: true,
            // No serviceUrl: this deployment's own RSS service.
            distribute: [{ plugin: "@curate/rss", config: {} }],
          },
        },
      },
    });
    await handle.db.insert(rssItems).values(Array.from({ length: ITEMS }, (_, i) => itemRow(i)));

    // The payload limit: the same bytes and headers the feed answers with, from memory, on the same server.
    let payload: { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } | null = null;
    const app = await startBenchApp(handle, {
      readCacheTtlMs: 1000,
      fetch: (served) => {
        const root = new Hono();
        // Answered as the feed route answers (bytes through Hono), so only the work differs.
        root.get(PAYLOAD_PATH, (c) =>
          payload ? c.body(payload.body, 200, payload.headers) : c.text("not ready", 503),
        );
        root.route("/", served);
        return root.fetch;
      },
    });
    try {
      const feedUrl = `${app.baseUrl}/rss/${FEED_ID}/rss.xml`;
      const first = await fetch(feedUrl, { headers: { "accept-encoding": "identity" } });
      if (first.status !== 200) throw new Error(`${feedUrl} answered ${first.status}`);
      const body = new Uint8Array(await first.arrayBuffer());
      const etag = first.headers.get("etag") ?? "";
      // Every header the feed answered with (security headers, CORS, caching) but the connection's: the header
      // block is part of what a client reads, and two dozen headers cost about a third of the rate at this size.
      const headers: Record<string, string> = {};
      first.headers.forEach((value, name) => {
        if (!CONNECTION_HEADERS.includes(name)) headers[name] = value;
      });
      payload = { body, headers };
      log(`  rss.xml: ${first.status}, ${(body.byteLength / 1024).toFixed(0)} KiB, ETag ${etag}`);
      // Several rounds, each route once per round, and the median round per route: on a shared machine one
      // run of a few seconds can halve or double, and the order of the routes should not decide the ratio.
      const routes: Array<[string, string, Record<string, string>, 200 | 304]> = [
        ["health", `${app.baseUrl}/api/health`, {}, 200],
        ["payload limit (same bytes, memory)", `${app.baseUrl}${PAYLOAD_PATH}`, {}, 200],
        ["rss.xml", feedUrl, {}, 200],
        ["rss.xml, If-None-Match (304)", feedUrl, { "if-none-match": etag }, 304],
      ];
      const runs: Row[][] = routes.map(() => []);
      for (let round = 1; round <= ROUNDS; round++) {
        log(`  round ${round} of ${ROUNDS}`);
        for (const [index, [name, url, headers, status]] of routes.entries()) {
          runs[index].push(await measure(name, url, headers, status));
        }
      }
      const rows = runs.map(
        (row) => [...row].sort((a, b) => a.requestsPerSec - b.requestsPerSec)[Math.floor(row.length / 2)],
      );
      const [health, limit, feed, revalidated] = rows;
      const feedRatio = feed.requestsPerSec / (limit.requestsPerSec || 1);
      const revalidatedRatio = revalidated.requestsPerSec / (health.requestsPerSec || 1);
      return { driver, bytes: body.byteLength, rows, feedRatio, revalidatedRatio };
    } finally {
      await app.close();
    }
  } finally {
    await dispose();
  }
}

async function main() {
  const results: Awaited<ReturnType<typeof runDriver>>[] = [];
  for (const driver of DRIVERS) {
    if (driver === "postgres" && !(await postgresReachable())) {
      log(`\n== postgres: not reachable at ${ADMIN_URL}, skipped`);
      continue;
    }
    results.push(await runDriver(driver));
  }
  let failed = false;
  for (const result of results) {
    log(
      `\n${result.driver} (median of ${ROUNDS} rounds, -c ${CONNECTIONS} -d ${DURATION}, rss.xml ${(result.bytes / 1024).toFixed(0)} KiB)`,
    );
    log(
      `${"route".padEnd(38)}${"req/s".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"MB/s".padStart(8)}`,
    );
    for (const r of result.rows) {
      const flags =
        r.unexpected || r.errors ? `  (${r.unexpected} unexpected statuses, ${r.errors} errors)` : "";
      log(
        `${r.name.padEnd(38)}${String(r.requestsPerSec).padStart(8)}${String(r.p50).padStart(8)}${String(r.p99).padStart(8)}${String(r.mbPerSec).padStart(8)}${flags}`,
      );
    }
    const met = result.feedRatio >= GOAL_FEED && result.revalidatedRatio >= GOAL_304;
    log(
      `rss.xml at ${Math.round(result.feedRatio * 100)}% of the payload limit; 304s at ${Math.round(result.revalidatedRatio * 100)}% of health`,
    );
    if (result.driver === "postgres") {
      log(
        `goal (rss.xml >= ${GOAL_FEED * 100}% of the payload limit, 304s >= ${GOAL_304 * 100}% of health): ${met ? "MET" : "NOT MET"}`,
      );
      failed ||= !met;
    }
  }
  process.exit(failed && env.BENCH_STRICT === "1" ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
