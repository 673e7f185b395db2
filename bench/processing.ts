/**
 * Processing benchmark: approvals through the real approval path (moderateLink) and the real engine, with one
 * object-transform and a no-op distributor, on PGlite (worker in process, as `npm start` runs) and PostgreSQL (one
 * and two `serve --role=worker`-like processes). For each: (a) 2,000 approvals committed at once — drain time and
 * jobs per second; (b) approvals arriving at 100 per second for 20 s — latency from approval to the job's end.
 * Usage: npm run bench:processing   (env: BENCH_DRIVERS, BENCH_DATABASE_URL, BENCH_BURST, BENCH_RATE, BENCH_SECONDS)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { loadEnv } from "../apps/server/src/config/env.ts";
import type { DatabaseHandle } from "../apps/server/src/db/index.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { createChangeNotifier } from "../apps/server/src/http/changes.ts";
import { createIntake } from "../apps/server/src/intake/runtime.ts";
import { createLogger } from "../apps/server/src/logger.ts";
import { moderateLink } from "../apps/server/src/moderation/service.ts";
import { withModerationLog } from "../apps/server/src/moderation-log/journal.ts";
import { createTelemetry } from "../apps/server/src/telemetry/telemetry.ts";
import { startWorker } from "../apps/server/src/worker/host.ts";
import { installQueue } from "../apps/server/src/worker/queue.ts";
import { ADMIN_URL, BENCH_LOG_SIGNING_KEY, type Driver, openFreshDatabase, postgresReachable } from "./db.ts";
import { BENCH_FEED, insertBenchFeed, noopDistributor } from "./processing-setup.ts";

const env = process.env;
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const BURST = Number(env.BENCH_BURST ?? 2000);
const RATE = Number(env.BENCH_RATE ?? 100);
const SECONDS = Number(env.BENCH_SECONDS ?? 20);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GOAL_JOBS_PER_SECOND = 200;
const GOAL_P50_MS = 500;

const log = (message: string) => process.stdout.write(`${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Result {
  variant: string;
  burstSeconds: number;
  jobsPerSecond: number;
  p50: number;
  p99: number;
  arrivals: number;
}

/** `count` pending submissions in the bench feed, named with `prefix`. */
async function pendingSubmissions(db: DatabaseHandle["db"], prefix: string, count: number) {
  await db.execute(sql`insert into submissions (tweet_id, user_id, username, content, url, created_at, submitted_at)
    select ${prefix} || n, 'u' || (n % 100), 'author' || (n % 100), 'Post ' || n || ' about something worth reading',
      'https://x.com/author/status/' || n, now(), now()
    from generate_series(1, ${count}) n`);
  await db.execute(sql`insert into submission_feeds (submission_id, feed_id, status, curator_username, submitted_at)
    select ${prefix} || n, ${BENCH_FEED}, 'pending', 'curator' || (n % 50), now() from generate_series(1, ${count}) n`);
}

const approval = (submissionId: string) => ({
  submissionId,
  feedId: BENCH_FEED,
  action: "approve" as const,
  moderatorAccountId: "bench.near",
  moderatorAccountIdType: "near" as const,
  source: "ui" as const,
});

async function waitForAll(db: DatabaseHandle["db"], prefix: string, count: number, limitMs: number) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const [row] = await queryRows<{ done: number }>(
      db,
      sql`select count(*)::int as done from processing_jobs
        where submission_id like ${`${prefix}%`} and status in ('completed', 'completed_with_errors', 'failed')`,
    );
    if (row.done >= count) return;
    if (Date.now() > deadline)
      throw new Error(`only ${row.done} of ${count} jobs finished in ${limitMs / 1000} s`);
    await sleep(20);
  }
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function measure(handle: DatabaseHandle, variant: string): Promise<Result> {
  const { db } = handle;
  // (a) a burst committed at once
  await pendingSubmissions(db, "b", BURST);
  await withModerationLog(db, async (tx) => {
    for (let n = 1; n <= BURST; n++) await moderateLink(tx, approval(`b${n}`));
  });
  const started = Date.now();
  await waitForAll(db, "b", BURST, 600_000);
  const burstSeconds = (Date.now() - started) / 1000;

  // (b) a steady arrival rate, each approval its own transaction
  const arrivals = RATE * SECONDS;
  await pendingSubmissions(db, "r", arrivals);
  const begin = Date.now();
  for (let n = 1; n <= arrivals; n++) {
    const due = begin + ((n - 1) * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    await withModerationLog(db, (tx) => moderateLink(tx, approval(`r${n}`)));
  }
  await waitForAll(db, "r", arrivals, 600_000);
  const latencies = (
    await queryRows<{ ms: number }>(
      db,
      sql`select extract(epoch from (completed_at - created_at)) * 1000 as ms from processing_jobs
        where submission_id like 'r%'`,
    )
  )
    .map((r) => Number(r.ms))
    .sort((a, b) => a - b);
  const result = {
    variant,
    burstSeconds,
    jobsPerSecond: Math.round(BURST / burstSeconds),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    arrivals,
  };
  log(
    `  ${variant}: ${BURST} at once drained in ${burstSeconds.toFixed(1)} s (${result.jobsPerSecond} jobs/s); ${RATE}/s for ${SECONDS} s: p50 ${result.p50} ms, p99 ${result.p99} ms`,
  );
  return result;
}

async function prepare(driver: Driver, name: string) {
  const scratch = await openFreshDatabase(driver, name);
  await scratch.handle.migrate();
  await installQueue(scratch.handle);
  await insertBenchFeed(scratch.handle.db);
  return scratch;
}

async function inProcess(driver: Driver): Promise<Result> {
  const { handle, dispose } = await prepare(driver, "curate_bench_processing");
  const appEnv = loadEnv({
    NODE_ENV: "production",
    SESSION_SECRET: "bench".repeat(8),
    LOG_SIGNING_KEY: BENCH_LOG_SIGNING_KEY,
    LOG_LEVEL: "silent",
  });
  const logger = createLogger("silent");
  const telemetry = createTelemetry();
  const intake = createIntake(handle.db, appEnv, logger, {
    telemetry,
    notifyChanged: createChangeNotifier().notify,
  });
  const worker = await startWorker({
    database: handle,
    env: appEnv,
    intake,
    logger,
    telemetry,
    extraPlugins: [noopDistributor],
  });
  try {
    return await measure(handle, `${driver}, 1 worker (in the server process)`);
  } finally {
    await worker.stop();
    await dispose();
  }
}

function startWorkerProcess(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/processing-worker.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NODE_ENV: "production",
      SESSION_SECRET: "bench".repeat(8),
      LOG_SIGNING_KEY: BENCH_LOG_SIGNING_KEY,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker ready")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
}

async function workerProcesses(count: number): Promise<Result> {
  const { handle, dispose } = await prepare("postgres", "curate_bench_processing");
  const url = (handle.connection as { url: string }).url;
  const workers = await Promise.all(Array.from({ length: count }, () => startWorkerProcess(url)));
  try {
    return await measure(handle, `postgres, ${count} worker process${count > 1 ? "es" : ""}`);
  } finally {
    await Promise.all(
      workers.map(
        (child) =>
          new Promise((resolve) => {
            child.once("exit", resolve);
            child.kill("SIGTERM");
          }),
      ),
    );
    await dispose();
  }
}

async function main() {
  const results: Result[] = [];
  if (DRIVERS.includes("pglite")) {
    log("== pglite");
    results.push(await inProcess("pglite"));
  }
  if (DRIVERS.includes("postgres")) {
    if (!(await postgresReachable())) {
      log(`== postgres: not reachable at ${ADMIN_URL}, skipped`);
    } else {
      log("== postgres");
      results.push(await workerProcesses(1));
      results.push(await workerProcesses(2));
    }
  }
  log(
    `\n${"variant".padEnd(44)}${"burst s".padStart(9)}${"jobs/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`,
  );
  for (const r of results) {
    log(
      `${r.variant.padEnd(44)}${r.burstSeconds.toFixed(1).padStart(9)}${String(r.jobsPerSecond).padStart(9)}${String(r.p50).padStart(9)}${String(r.p99).padStart(9)}`,
    );
  }
  const one = results.find((r) => r.variant === "postgres, 1 worker process");
  if (one) {
    const met = one.jobsPerSecond >= GOAL_JOBS_PER_SECOND && one.p50 < GOAL_P50_MS;
    log(
      `goal on PostgreSQL (one worker: >= ${GOAL_JOBS_PER_SECOND} jobs/s, p50 < ${GOAL_P50_MS} ms at ${RATE}/s): ${met ? "MET" : "NOT MET"}`,
    );
  }
}

main().catch((error) => {
  process.stderr.write(`processing bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
