/**
 * API benchmark: the submission lists against the health route on the same server, per driver, in one run.
 * Usage: npm run bench   (env: BENCH_DRIVERS, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_SUBMISSIONS, BENCH_DATABASE_URL)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ADMIN_URL, type Driver, openFreshDatabase, postgresReachable, startBenchApp } from "./db.ts";
import { checkLoadedData, type LoadSize, loadBenchData, RARE_WORD } from "./load.ts";
import { checkSearch } from "./search-check.ts";

const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 1);
const SIZE: LoadSize = {
  submissions: Number(env.BENCH_SUBMISSIONS ?? 100_000),
  feeds: Number(env.BENCH_FEEDS ?? 50),
  curators: Number(env.BENCH_CURATORS ?? 5_000),
  authors: Number(env.BENCH_AUTHORS ?? 20_000),
};
const BENCH_DB = "curate_bench";
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
/** Loading plus measuring one driver must finish within this, or the run fails instead of hanging. */
const LOAD_LIMIT_MS = Number(env.BENCH_LOAD_LIMIT_MS ?? 120_000);
const GOAL_RATIO = 0.4;
const GOAL_P99_MS = 50;
const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "results");

/** The busiest feed by construction (feed ids are drawn with a skew towards low numbers). */
const ROUTES: { name: string; path: string }[] = [
  { name: "health", path: "/api/health" },
  { name: "submissions (first page)", path: "/api/submissions?page=0&limit=20" },
  { name: "submissions (status=approved)", path: "/api/submissions?status=approved" },
  { name: `submissions (q=${RARE_WORD})`, path: `/api/submissions?q=${RARE_WORD}` },
  { name: "feed submissions (feed01)", path: "/api/submissions/feed/feed01" },
];

interface RouteResult {
  route: string;
  path: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  ratio: number;
  non2xx: number;
  errors: number;
}

interface DriverResult {
  driver: Driver;
  loadMs: number;
  submissions: number;
  links: number;
  /** As deployed: the one-second public read cache on (READ_CACHE_TTL_MS default). */
  routes: RouteResult[];
  /** Every request reaching the database (READ_CACHE_TTL_MS=0), for comparison. */
  uncachedRoutes: RouteResult[];
  goalsMet: boolean | null;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

async function fire(url: string, seconds: number): Promise<autocannon.Result> {
  // The load generator runs in a worker thread so it does not share the event loop with the server.
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, workers: 1 });
}

async function measure(baseUrl: string): Promise<RouteResult[]> {
  const results: RouteResult[] = [];
  for (const route of ROUTES) {
    const url = `${baseUrl}${route.path}`;
    const probe = await fetch(url);
    if (!probe.ok) throw new Error(`${route.path} answered ${probe.status}: ${await probe.text()}`);
    if (WARMUP > 0) await fire(url, WARMUP);
    const r = await fire(url, DURATION);
    results.push({
      route: route.name,
      path: route.path,
      requestsPerSec: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      ratio: 0,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    });
    log(
      `  ${route.name.padEnd(32)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p99 ${r.latency.p99} ms`,
    );
  }
  const health = results[0].requestsPerSec || 1;
  for (const r of results) r.ratio = Math.round((r.requestsPerSec / health) * 100) / 100;
  return results;
}

async function runDriver(driver: Driver): Promise<DriverResult> {
  log(
    `\n== ${driver}: ${SIZE.submissions.toLocaleString()} submissions, ${SIZE.feeds} feeds, ${SIZE.curators} curators`,
  );
  const { handle, dispose } = await openFreshDatabase(driver, BENCH_DB);
  try {
    await handle.migrate();
    const started = Date.now();
    await withTimeout(loadBenchData(handle.db, SIZE), LOAD_LIMIT_MS, `${driver} bulk load`);
    const loaded = await checkLoadedData(handle.db);
    const loadMs = Date.now() - started;
    log(
      `  loaded ${loaded.submissions} submissions / ${loaded.links} feed links in ${(loadMs / 1000).toFixed(1)} s`,
    );

    let app: Awaited<ReturnType<typeof startBenchApp>> | undefined;
    const startApp = async (readCacheTtlMs: number) => {
      app = await startBenchApp(handle, { readCacheTtlMs });
      return app.baseUrl;
    };
    const stopApp = async () => {
      await app?.close();
      app = undefined;
    };

    log("  without the read cache:");
    const uncachedUrl = await startApp(0);
    await checkSearch(uncachedUrl, handle.db);
    const uncachedRoutes = await measure(uncachedUrl);
    await stopApp();
    log("  as deployed (1 s public read cache):");
    const routes = await measure(await startApp(1000));
    const goalsMet =
      driver === "postgres"
        ? routes.slice(1).every((r) => r.ratio >= GOAL_RATIO && r.p99 < GOAL_P99_MS && r.non2xx === 0)
        : null;
    await stopApp();
    return { driver, loadMs, ...loaded, routes, uncachedRoutes, goalsMet };
  } finally {
    await dispose();
  }
}

function printTable(result: DriverResult) {
  log(`\n${result.driver} (load ${(result.loadMs / 1000).toFixed(1)} s, -c ${CONNECTIONS} -d ${DURATION})`);
  printRoutes("without the read cache", result.uncachedRoutes);
  printRoutes("as deployed (1 s read cache)", result.routes);
  if (result.goalsMet !== null) {
    log(
      `goal (every list >= ${GOAL_RATIO * 100}% of health and p99 < ${GOAL_P99_MS} ms, as deployed): ${result.goalsMet ? "MET" : "NOT MET"}`,
    );
  }
}

function printRoutes(title: string, routes: RouteResult[]) {
  log(
    `${title.padEnd(34)}${"req/s".padStart(8)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}${"vs health".padStart(11)}`,
  );
  for (const r of routes) {
    const flags = r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : "";
    log(
      `${r.route.padEnd(34)}${String(r.requestsPerSec).padStart(8)}${String(r.p50).padStart(8)}${String(r.p99).padStart(8)}${`${Math.round(r.ratio * 100)}%`.padStart(11)}${flags}`,
    );
  }
}

async function main() {
  const results: DriverResult[] = [];
  for (const driver of DRIVERS) {
    if (driver === "postgres" && !(await postgresReachable())) {
      log(`\n== postgres: not reachable at ${ADMIN_URL}, skipped`);
      continue;
    }
    results.push(await runDriver(driver));
  }
  for (const result of results) printTable(result);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    settings: { duration: DURATION, connections: CONNECTIONS, warmup: WARMUP, ...SIZE },
    goals: { ratio: GOAL_RATIO, p99Ms: GOAL_P99_MS },
    results,
  };
  const file = join(RESULTS_DIR, `api-${report.at.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, "api-latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  log(`\nresults written to ${file}`);
  const failed = results.some((r) => r.goalsMet === false);
  process.exit(failed && env.BENCH_STRICT === "1" ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
