import type { DatabaseHandle } from "../apps/server/src/db/index.ts";
import {
  type Driver,
  openScratchDatabase,
  postgresReachable as reachable,
  type ScratchDatabase,
} from "../apps/server/test/databases.ts";
import { serveApp } from "../apps/server/test/serve-app.ts";

export type { Driver };

/** The PostgreSQL server benchmarks create their throw-away databases on. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function postgresReachable(): Promise<boolean> {
  return reachable(ADMIN_URL);
}

/** An empty, unmigrated database on the driver (named `name` on PostgreSQL), and how to throw it away. */
export function openFreshDatabase(driver: Driver, name: string): Promise<ScratchDatabase> {
  return openScratchDatabase(driver, { adminUrl: ADMIN_URL, name });
}

/** The app as deployed (production mode, no worker) over `database`, with the read cache as asked. */
export function startBenchApp(database: DatabaseHandle, options: { readCacheTtlMs: number }) {
  return serveApp(
    database,
    {
      NODE_ENV: "production",
      SESSION_SECRET: "bench-session-secret-bench-session-secret",
      READ_CACHE_TTL_MS: String(options.readCacheTtlMs),
    },
    { version: "bench" },
  );
}
