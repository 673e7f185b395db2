/**
 * Background bulk decisions at the size the gate does not run: 2,500 pending posts approved by one run, decided in
 * chunks of 100 as the worker does (without its pause between chunks), per driver. Prints posts decided per second
 * and checks, as the gate's smaller test does, that every post was decided exactly once with one processing request.
 * Usage: npm run bench:bulk (env: BENCH_DRIVERS, BENCH_BULK_POSTS, BENCH_DATABASE_URL)
 */
import { sql } from "drizzle-orm";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { runBulkRun, startBulkRun } from "../apps/server/src/moderation/bulk-runs.ts";
import { installQueue } from "../apps/server/src/worker/queue.ts";
import { insertFeed, insertPendingPosts } from "../apps/server/test/factories.ts";
import { type Driver, openFreshDatabase, postgresReachable } from "./db.ts";

const env = process.env;
const POSTS = Number(env.BENCH_BULK_POSTS ?? 2500);
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const MODERATOR = "bench-moderator.near";

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

async function measure(driver: Driver) {
  const scratch = await openFreshDatabase(driver, "curate_bench_bulk");
  try {
    const { db } = scratch.handle;
    await scratch.handle.migrate();
    await installQueue(scratch.handle);
    await insertFeed(db, { id: "backlog", createdBy: MODERATOR });
    await insertPendingPosts(db, "backlog", POSTS);
    const user = { id: 1, nearAccountId: MODERATOR, username: null, profileImage: null } as never;
    const started = performance.now();
    const run = await startBulkRun(db, { SUPER_ADMIN_ACCOUNTS: [] }, user, {
      feedId: "backlog",
      action: "approve",
      filter: { q: "" },
    });
    const queuedMs = performance.now() - started;
    const outcome = await runBulkRun(db, run.id, { chunkPauseMs: 0 });
    const seconds = (performance.now() - started) / 1000;
    const [check] = await queryRows<{ approved: number; once: boolean; jobs: number }>(
      db,
      sql`select
        (select count(*)::int from submission_feeds where feed_id = 'backlog' and status = 'approved') as approved,
        (select bool_and(n = 1) from (select count(*) as n from moderation_history where feed_id = 'backlog'
          group by submission_id) h) as once,
        (select count(*)::int from processing_jobs where feed_id = 'backlog') as jobs`,
    );
    const exact = outcome === "finished" && check.approved === POSTS && check.once && check.jobs === POSTS;
    log(
      `${driver.padEnd(8)} ${POSTS} posts  queued in ${queuedMs.toFixed(0)} ms  decided in ${seconds.toFixed(1)} s  ` +
        `${(POSTS / seconds).toFixed(0)} posts/s  each once: ${exact ? "yes" : "NO"}`,
    );
    if (!exact) process.exitCode = 1;
  } finally {
    await scratch.dispose();
  }
}

for (const driver of DRIVERS) {
  if (driver === "postgres" && !(await postgresReachable())) {
    log("postgres: not reachable, skipped");
    continue;
  }
  await measure(driver);
}
