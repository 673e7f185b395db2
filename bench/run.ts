/**
 * API benchmark: the submission lists, uncached, against `/api/health` and against a route on the same server that
 * answers each list's exact bytes from memory (the payload limit), per driver, in one run.
 * Usage: npm run bench:api   (env: BENCH_DRIVERS, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_SUBMISSIONS,
 * BENCH_DATABASE_URL, BENCH_KEEP, BENCH_CACHED, BENCH_STRICT)
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { queryRows } from "../apps/server/src/db/sql.ts";
import {
  ADMIN_URL,
  type Driver,
  openFreshDatabase,
  openKeptDatabase,
  postgresReachable,
  startBenchApp,
} from "./db.ts";
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
/** One database per size, so a kept 1M data set (BENCH_KEEP=1) is never mistaken for the quick 100k one. */
const BENCH_DB = `curate_bench_${SIZE.submissions}`;
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
/** Loading one driver's data must finish within this (2 minutes per 100,000 submissions), or the run fails. */
const LOAD_LIMIT_MS = Number(
  env.BENCH_LOAD_LIMIT_MS ?? Math.max(120_000, (SIZE.submissions / 100_000) * 120_000),
);
/** PostgreSQL: keep the loaded database and reuse it next time when it holds the same data set. */
const KEEP = env.BENCH_KEEP === "1";
/** Also measure as deployed (1 s read cache); the goal is judged uncached either way. */
const CACHED = env.BENCH_CACHED === "1";
const GOAL_RATIO = 0.6;
const GOAL_P99_MS = 50;
const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "results");
const PAYLOAD_PATH = "/bench/payload";
const CONNECTION_HEADERS = ["content-length", "connection", "keep-alive", "date", "transfer-encoding"];

/** A term in no post, author or curator name. */
const NO_HIT = "qqxjvwz";
/** A two-letter search, as typed into the box before a third letter: it starts every curator's handle here. */
const TWO_LETTERS = "cu";
const DEEP_PAGE = 2_000;

/** The busiest feed by construction (feed ids are drawn with a skew towards low numbers). */
const LISTS: { name: string; path: string }[] = [
  { name: "first page", path: "/api/submissions?page=0&limit=20" },
  { name: "status=approved", path: "/api/submissions?status=approved" },
  { name: "status=pending", path: "/api/submissions?status=pending" },
  { name: "sortOrder=oldest", path: "/api/submissions?sortOrder=oldest" },
  { name: `deep page (page=${DEEP_PAGE})`, path: `/api/submissions?page=${DEEP_PAGE}` },
  { name: `search, 1% (q=${RARE_WORD})`, path: `/api/submissions?q=${RARE_WORD}` },
  { name: `search, no hit (q=${NO_HIT})`, path: `/api/submissions?q=${NO_HIT}` },
  { name: `search, two letters (q=${TWO_LETTERS})`, path: `/api/submissions?q=${TWO_LETTERS}` },
  { name: "busiest feed (feed01)", path: "/api/submissions/feed/feed01" },
];

interface RouteResult {
  route: string;
  path: string;
  bytes: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU milliseconds per request: the server's main thread, and PostgreSQL's backends (null on PGlite). */
  serverCpuMs: number | null;
  databaseCpuMs: number | null;
}

interface ListResult extends RouteResult {
  payload: RouteResult;
  /** The list's rate over the payload limit's for the same bytes. */
  ratio: number;
  met: boolean;
}

interface DriverResult {
  driver: Driver;
  loadMs: number;
  submissions: number;
  links: number;
  health: RouteResult;
  /** Every request reaching the database (READ_CACHE_TTL_MS=0): what the goal is judged on. */
  lists: ListResult[];
  /** As deployed (1 s public read cache), when BENCH_CACHED=1. */
  cached: RouteResult[] | null;
  goalsMet: boolean;
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

/** CPU seconds (user + system) a thread or process has used, from /proc (Linux); null elsewhere. */
function cpuSeconds(path: string): number | null {
  try {
    const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Where a request's time goes: CPU used per request by the server's main thread (not the load generator's
 * worker thread) and by the PostgreSQL backends serving it, when they run on this machine.
 */
interface CpuProbe {
  backends: () => Promise<number[]>;
}

function cpuNow(backends: number[]) {
  const server = cpuSeconds(`/proc/self/task/${process.pid}/stat`);
  let database: number | null = backends.length ? 0 : null;
  for (const pid of backends) {
    const used = cpuSeconds(`/proc/${pid}/stat`);
    database = used === null || database === null ? null : database + used;
  }
  return { server, database };
}

async function measure(name: string, url: string, bytes: number, probe?: CpuProbe): Promise<RouteResult> {
  if (WARMUP > 0) await fire(url, WARMUP);
  const backends = probe ? await probe.backends() : [];
  const before = cpuNow(backends);
  const r = await fire(url, DURATION);
  const after = cpuNow(backends);
  const perRequest = (a: number | null, b: number | null) =>
    a === null || b === null || !r.requests.total
      ? null
      : Math.round(((b - a) * 1e6) / r.requests.total) / 1000;
  const result: RouteResult = {
    route: name,
    path: new URL(url).pathname + new URL(url).search,
    bytes,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    serverCpuMs: perRequest(before.server, after.server),
    databaseCpuMs: probe ? perRequest(before.database, after.database) : null,
  };
  const cpu =
    result.serverCpuMs === null
      ? ""
      : `  cpu/request: server ${result.serverCpuMs} ms${result.databaseCpuMs === null ? "" : `, postgres ${result.databaseCpuMs} ms`}`;
  log(`  ${name.padEnd(40)} ${String(result.requestsPerSec).padStart(6)} req/s  p99 ${result.p99} ms${cpu}`);
  return result;
}

type Payload = { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> };

/** The app with one bench-only route in front of it (in this process, never in the app) that answers `payload`. */
async function startMeasuredApp(
  handle: Awaited<ReturnType<typeof openFreshDatabase>>["handle"],
  readCacheTtlMs: number,
  current: { payload: Payload | null },
) {
  return startBenchApp(handle, {
    readCacheTtlMs,
    fetch: (served) => {
      const root = new Hono();
      // Answered as the app answers (bytes through Hono), so only the work differs.
      root.get(PAYLOAD_PATH, (c) =>
        current.payload
          ? c.body(current.payload.body, 200, current.payload.headers)
          : c.text("not ready", 503),
      );
      root.route("/", served);
      return root.fetch;
    },
  });
}

/** The list's exact bytes and headers (all but the connection's), checked to be a fresh, uncached answer. */
async function capture(url: string): Promise<Payload> {
  const fetchOnce = async () => {
    const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    return res;
  };
  await (await fetchOnce()).arrayBuffer();
  const res = await fetchOnce();
  if (res.headers.get("x-cache")) throw new Error(`${url} was answered from the read cache`);
  const body = new Uint8Array(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!CONNECTION_HEADERS.includes(name)) headers[name] = value;
  });
  return { body, headers };
}

async function loadOnce(driver: Driver): Promise<{
  handle: Awaited<ReturnType<typeof openFreshDatabase>>["handle"];
  dispose: () => Promise<void>;
  loadMs: number;
}> {
  const started = Date.now();
  if (driver === "postgres" && KEEP) {
    const kept = await openKeptDatabase(BENCH_DB);
    await kept.handle.migrate();
    const [row] = await queryRows<{ n: number }>(
      kept.handle.db,
      sql`select count(*)::int as n from submissions`,
    );
    if (row.n === SIZE.submissions) {
      await kept.handle.db.execute(sql`analyze`);
      log(`  reusing the kept database ${BENCH_DB} (${row.n} submissions)`);
      return { ...kept, loadMs: 0 };
    }
    await kept.dispose();
  }
  const { handle, dispose } = await openFreshDatabase(driver, BENCH_DB);
  await handle.migrate();
  await withTimeout(loadBenchData(handle.db, SIZE), LOAD_LIMIT_MS, `${driver} bulk load`);
  const keep = driver === "postgres" && KEEP;
  return { handle, dispose: keep ? () => handle.close() : dispose, loadMs: Date.now() - started };
}

async function runDriver(driver: Driver): Promise<DriverResult> {
  log(
    `\n== ${driver}: ${SIZE.submissions.toLocaleString()} submissions, ${SIZE.feeds} feeds, ${SIZE.curators} curators`,
  );
  const { handle, dispose, loadMs } = await loadOnce(driver);
  try {
    const loaded = await checkLoadedData(handle.db);
    log(
      `  ${loaded.submissions} submissions / ${loaded.links} feed links, loaded in ${(loadMs / 1000).toFixed(1)} s`,
    );

    const current: { payload: Payload | null } = { payload: null };
    log("  without the read cache (READ_CACHE_TTL_MS=0), each list next to its bytes from memory:");
    let app = await startMeasuredApp(handle, 0, current);
    let health: RouteResult;
    const lists: ListResult[] = [];
    // The PostgreSQL backends of this database (the app's pool, once warm), to read their CPU time.
    const probe: CpuProbe | undefined =
      driver === "postgres"
        ? {
            backends: async () =>
              (
                await queryRows<{ pid: number }>(
                  handle.db,
                  sql`select pid from pg_stat_activity where datname = current_database()`,
                )
              ).map((r) => r.pid),
          }
        : undefined;
    try {
      await checkSearch(app.baseUrl, handle.db);
      health = await measure("health", `${app.baseUrl}/api/health`, 0, probe);
      for (const list of LISTS) {
        const url = `${app.baseUrl}${list.path}`;
        current.payload = await capture(url);
        const bytes = current.payload.body.byteLength;
        const measured = await measure(list.name, url, bytes, probe);
        const payload = await measure(
          `  payload limit (${(bytes / 1024).toFixed(1)} KiB)`,
          `${app.baseUrl}${PAYLOAD_PATH}`,
          bytes,
        );
        const ratio = Math.round((measured.requestsPerSec / (payload.requestsPerSec || 1)) * 100) / 100;
        const met =
          ratio >= GOAL_RATIO && measured.p99 < GOAL_P99_MS && measured.non2xx === 0 && measured.errors === 0;
        lists.push({ ...measured, payload, ratio, met });
      }
    } finally {
      await app.close();
    }

    let cached: RouteResult[] | null = null;
    if (CACHED) {
      log("  as deployed (1 s public read cache):");
      app = await startMeasuredApp(handle, 1000, current);
      try {
        cached = [];
        for (const list of LISTS) cached.push(await measure(list.name, `${app.baseUrl}${list.path}`, 0));
      } finally {
        await app.close();
      }
    }
    return { driver, loadMs, ...loaded, health, lists, cached, goalsMet: lists.every((l) => l.met) };
  } finally {
    await dispose();
  }
}

const cell = (value: number | string | null, width: number) => String(value ?? "-").padStart(width);

function printTable(result: DriverResult) {
  log(
    `\n${result.driver}, ${result.submissions.toLocaleString()} submissions (load ${(result.loadMs / 1000).toFixed(1)} s, -c ${CONNECTIONS} -d ${DURATION}), uncached`,
  );
  log(
    `${"route".padEnd(36)}${"req/s".padStart(7)}${"p50".padStart(6)}${"p99".padStart(6)}${"KiB".padStart(7)}${"limit/s".padStart(9)}${"vs limit".padStart(10)}${"vs health".padStart(11)}${"srv ms".padStart(8)}${"pg ms".padStart(7)}${"lim ms".padStart(8)}  goal`,
  );
  const health = result.health.requestsPerSec || 1;
  const h = result.health;
  log(
    `${"health".padEnd(36)}${cell(h.requestsPerSec, 7)}${cell(h.p50, 6)}${cell(h.p99, 6)}${"".padStart(37)}${cell(h.serverCpuMs, 8)}${cell(h.databaseCpuMs, 7)}`,
  );
  for (const r of result.lists) {
    const flags = r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : "";
    log(
      `${r.route.padEnd(36)}${cell(r.requestsPerSec, 7)}${cell(r.p50, 6)}${cell(r.p99, 6)}${cell((r.bytes / 1024).toFixed(1), 7)}${cell(r.payload.requestsPerSec, 9)}${cell(`${Math.round(r.ratio * 100)}%`, 10)}${cell(`${Math.round((r.requestsPerSec / health) * 100)}%`, 11)}${cell(r.serverCpuMs, 8)}${cell(r.databaseCpuMs, 7)}${cell(r.payload.serverCpuMs, 8)}  ${r.met ? "MET" : "NOT MET"}${flags}`,
    );
  }
  log(
    "srv ms / pg ms = CPU per request of the server's main thread / the PostgreSQL backends; lim ms = the payload route's",
  );
  if (result.cached) {
    log("as deployed (1 s read cache)");
    for (const r of result.cached) {
      log(`${r.route.padEnd(36)}${cell(r.requestsPerSec, 7)}${cell(r.p50, 6)}${cell(r.p99, 6)}`);
    }
  }
  log(
    `goal (uncached: every list p99 < ${GOAL_P99_MS} ms and >= ${GOAL_RATIO * 100}% of the payload limit): ${result.goalsMet ? "MET" : "NOT MET"}`,
  );
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
    goals: { ratio: GOAL_RATIO, p99Ms: GOAL_P99_MS, judged: "uncached" },
    results,
  };
  const file = join(RESULTS_DIR, `api-${report.at.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS_DIR, "api-latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  log(`\nresults written to ${file}`);
  const failed = results.some((r) => r.driver === "postgres" && !r.goalsMet);
  process.exit(failed && env.BENCH_STRICT === "1" ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
