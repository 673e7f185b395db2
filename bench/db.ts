import pg from "pg";
import { type DatabaseHandle, openDatabase } from "../apps/server/src/db/index.ts";
import {
  type Driver,
  openScratchDatabase,
  postgresReachable as reachable,
  type ScratchDatabase,
  SERVER_SHARED_BUFFERS,
  withDatabase,
} from "../apps/server/test/databases.ts";
import { type ServeOptions, serveApp } from "../apps/server/test/serve-app.ts";

export type { Driver };

/** The moderation log's signing key of production-mode benchmark servers (an Ed25519 seed, hex). */
export const BENCH_LOG_SIGNING_KEY = "be".repeat(32);

/** The PostgreSQL server benchmarks create their throw-away databases on. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function postgresReachable(): Promise<boolean> {
  return reachable(ADMIN_URL);
}

/** An empty, unmigrated database on the driver (named `name` on PostgreSQL), and how to throw it away. */
export function openFreshDatabase(driver: Driver, name: string): Promise<ScratchDatabase> {
  return openScratchDatabase(driver, { adminUrl: ADMIN_URL, name, sharedBuffers: SERVER_SHARED_BUFFERS });
}

/**
 * A PostgreSQL database named `name` that outlives the run (created when absent, never dropped): a large data set
 * loaded once can be measured again without loading it again.
 */
export async function openKeptDatabase(name: string): Promise<ScratchDatabase> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ url: withDatabase(ADMIN_URL, name) });
  return { handle, dispose: () => handle.close() };
}

/** The app as deployed (production mode, no worker) over `database`, with the read cache as asked. */
export function startBenchApp(
  database: DatabaseHandle,
  options: { readCacheTtlMs: number; fetch?: ServeOptions["fetch"] },
) {
  return serveApp(
    database,
    {
      NODE_ENV: "production",
      SESSION_SECRET: "bench-session-secret-bench-session-secret",
      LOG_SIGNING_KEY: BENCH_LOG_SIGNING_KEY,
      READ_CACHE_TTL_MS: String(options.readCacheTtlMs),
    },
    { version: "bench", fetch: options.fetch },
  );
}
