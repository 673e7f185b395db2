/**
 * Leaderboard benchmark on PostgreSQL: 1,000,000 submissions, 20,000 curators, 200 feeds. Measures every time
 * range the page offers (all time, This Month, This Week, Today), for all feeds and the busiest one:
 * GET /api/leaderboard (trigger-kept statistics, read cache off) for each variant — p50/p99 over sequential
 * requests — next to the one-aggregate-query alternative over the feed links, in one run. The loaded decisions
 * bypass the triggers, as decisions written before reputation existed: the reputation backfill classifies them
 * (timed), the medians are recomputed once (timed), and the ranking by score is measured beside the counts.
 * Usage: npm run bench:leaderboard   (env: BENCH_DATABASE_URL, BENCH_LB_SUBMISSIONS, BENCH_LB_REQUESTS)
 */
import { sql } from "drizzle-orm";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { timeRangeStart } from "../apps/server/src/leaderboard/service.ts";
import { backfillReputation } from "../apps/server/src/reputation/backfill.ts";
import { refreshMedians } from "../apps/server/src/reputation/service.ts";
import { openFreshDatabase, startBenchApp } from "./db.ts";
import { loadBenchData } from "./load.ts";

const env = process.env;
const DB_NAME = "curate_bench_leaderboard";
const SIZE = {
  submissions: Number(env.BENCH_LB_SUBMISSIONS ?? 1_000_000),
  feeds: 200,
  curators: 20_000,
  authors: 100_000,
};
const REQUESTS = Number(env.BENCH_LB_REQUESTS ?? 200);
const AGGREGATE_RUNS = 5;
const GOAL_P99_MS = 100;
const LOAD_LIMIT_MS = 15 * 60_000;

const log = (message: string) => process.stdout.write(`${message}\n`);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timeMany(n: number, run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const ms = (v: number) => v.toFixed(1).padStart(8);

async function main() {
  const { handle, dispose } = await openFreshDatabase("postgres", DB_NAME);
  let app: Awaited<ReturnType<typeof startBenchApp>> | undefined;
  try {
    await handle.migrate();
    log(
      `loading ${SIZE.submissions.toLocaleString()} submissions, ${SIZE.curators} curators, ${SIZE.feeds} feeds…`,
    );
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      loadBenchData(handle.db, SIZE),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("bulk load took too long")), LOAD_LIMIT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    log(`loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const [{ decisions }] = await queryRows<{ decisions: number }>(
      handle.db,
      sql`select count(*)::int as decisions from moderation_history`,
    );
    const backfillStarted = Date.now();
    const backfill = await backfillReputation(handle.db);
    const backfillSeconds = (Date.now() - backfillStarted) / 1000;
    log(
      `reputation backfill: ${decisions.toLocaleString()} decisions in ${backfill.chunks} chunks, ${backfillSeconds.toFixed(1)} s (${Math.round(decisions / backfillSeconds).toLocaleString()}/s)`,
    );
    // The backfill rewrote every decision row: leave the database at rest again, as the load does, so the
    // measurement does not race autovacuum catching up with a million dead rows.
    await handle.db.execute(sql`vacuum analyze`);
    const mediansStarted = Date.now();
    await refreshMedians(handle.db);
    log(`median refresh (approvers and queues): ${((Date.now() - mediansStarted) / 1000).toFixed(1)} s`);

    app = await startBenchApp(handle, { readCacheTtlMs: 0 });
    const base = `${app.baseUrl}/api/leaderboard`;

    const busiest = "feed001";
    const variants = [
      { name: "all time", query: "", timeRange: "all" as const, feedId: null, goal: true },
      {
        name: `all time, ${busiest}`,
        query: `?feedId=${busiest}`,
        timeRange: "all" as const,
        feedId: busiest,
        goal: true,
      },
      { name: "by score", query: "?sort=score", timeRange: "all" as const, feedId: null, goal: true },
      {
        name: `by score, ${busiest}`,
        query: `?sort=score&feedId=${busiest}`,
        timeRange: "all" as const,
        feedId: busiest,
        goal: true,
      },
      { name: "week", query: "?timeRange=week", timeRange: "week" as const, feedId: null, goal: true },
      { name: "month", query: "?timeRange=month", timeRange: "month" as const, feedId: null, goal: true },
      {
        name: `month, ${busiest}`,
        query: `?timeRange=month&feedId=${busiest}`,
        timeRange: "month" as const,
        feedId: busiest,
        goal: true,
      },
      { name: "today", query: "?timeRange=today", timeRange: "today" as const, feedId: null, goal: true },
      {
        name: `week, ${busiest}`,
        query: `?timeRange=week&feedId=${busiest}`,
        timeRange: "week" as const,
        feedId: busiest,
        goal: true,
      },
    ];

    log(
      `\n${"variant".padEnd(24)}${"kept p50".padStart(10)}${"kept p99".padStart(10)}${"agg p50".padStart(10)}${"agg p99".padStart(10)}`,
    );
    let met = true;
    for (const v of variants) {
      const url = `${base}${v.query}`;
      const probe = await fetch(url);
      if (!probe.ok) throw new Error(`${url} answered ${probe.status}`);
      for (let i = 0; i < 20; i++) await (await fetch(url)).arrayBuffer();
      const kept = await timeMany(REQUESTS, async () => (await fetch(url)).arrayBuffer());
      const since = timeRangeStart(v.timeRange)?.toISOString() ?? null;
      const aggregate = await timeMany(AGGREGATE_RUNS, () =>
        handle.db.execute(sql`select curator_username, count(*) as n,
            count(*) filter (where status = 'approved') as approved
          from submission_feeds
          where curator_username is not null
            and (${v.feedId}::text is null or feed_id = ${v.feedId})
            and (${since}::timestamptz is null or submitted_at >= ${since})
          group by curator_username order by n desc, approved desc, curator_username limit 100`),
      );
      if (v.goal) met &&= kept.p99 < GOAL_P99_MS;
      log(
        `${`${v.name}${v.goal ? "" : " *"}`.padEnd(24)}${ms(kept.p50)} ms${ms(kept.p99)} ms${ms(aggregate.p50)} ms${ms(aggregate.p99)} ms`,
      );
    }
    log(
      `\nkept = GET /api/leaderboard over HTTP (${REQUESTS} sequential requests, 100 curators with per-feed rows)`,
    );
    log(`agg  = the ranking alone as one aggregate query over submission_feeds (${AGGREGATE_RUNS} runs)`);
    log(
      `goal (p99 < ${GOAL_P99_MS} ms for every time range the page offers, all feeds and one): ${met ? "MET" : "NOT MET"}`,
    );
  } finally {
    await app?.close();
    await dispose();
  }
}

main().catch((error) => {
  process.stderr.write(`leaderboard bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
