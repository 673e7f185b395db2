import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  driver: "pglite" | "postgres";
  /** What a queue library needs to share this database: the embedded client, or the server's URL. */
  connection: { driver: "pglite"; client: PGlite } | { driver: "postgres"; url: string };
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (across processes on PostgreSQL), and without
   * one whenever notifications may have been missed (on each (re)connect); returns how to stop.
   */
  listen(channel: string, onNotify: (payload?: string) => void): Promise<() => Promise<void>>;
  /** The connection pool as /metrics reports it (PGlite: its one connection). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, idle among them, queries waiting for one, and the most the pool opens. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * LISTEN on a dedicated connection that comes back by itself: a notification is only a hint to look now, so a
 * missed one costs a poll interval, never a lost job.
 */
async function listenOnPostgres(url: string, channel: string, onNotify: (payload?: string) => void) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url });
    next.on("error", () => {
      next.end().catch(() => {});
      if (client === next) client = null;
      if (!stopped) retry = setTimeout(connect, 1000);
    });
    next.on("notification", (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = next;
      onNotify();
    } catch {
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(connect, 1000);
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** A connection that failed mid-use: the pool must discard it, never hand it out again. */
function isBroken(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (
      typeof e.code === "string" &&
      /^(57P0[123]|08\d{3}|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT)$/.test(e.code)
    )
      return true;
    if (
      typeof e.message === "string" &&
      /terminat|not queryable|Connection terminated|closed/i.test(e.message)
    )
      return true;
  }
  return false;
}

/**
 * Transactions on a pooled connection that is always given back, whatever fails, and given back as broken when the
 * connection died (so the pool replaces it). drizzle's own pool transaction sends BEGIN outside its try/finally:
 * a connection lost at BEGIN is never released, and after a few such losses the pool has nothing left to give.
 */
function pooledTransaction(pool: pg.Pool) {
  const onClient = new WeakMap<pg.PoolClient, Database>();
  return async <T>(work: (tx: Database) => Promise<T>, config?: unknown): Promise<T> => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      let clientDb = onClient.get(client);
      if (!clientDb) {
        clientDb = drizzleNodePg(client, { schema }) as unknown as Database;
        onClient.set(client, clientDb);
      }
      return await (clientDb.transaction as (w: typeof work, c?: unknown) => Promise<T>)(work, config);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.release(isBroken(failure) ? (failure as Error) : undefined);
    }
  };
}

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export type DatabaseTarget =
  | { url: string }
  | {
      pgliteDir: string;
      /**
       * PostgreSQL's buffer pool, when not the embedded default (128 MB): PGlite clears the whole pool each time it
       * opens a database, which is most of an open's cost. Test databases, small and opened hundreds of times a
       * run, ask for less.
       */
      sharedBuffers?: string;
    };

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if ("url" in target) {
    const max = 10;
    const pool = new pg.Pool({ connectionString: target.url, max });
    // A connection lost while idle in the pool, or while checked out between the statements of a transaction
    // (server restart, terminated backend), must not crash the process: the statement under way fails instead,
    // answers UNAVAILABLE, and the pool replaces the connection. pg emits such losses as 'error' events, on the
    // pool for idle clients and on the client itself otherwise.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    db.transaction = pooledTransaction(pool) as Database["transaction"];
    let closed: Promise<void> | null = null;
    return {
      db,
      driver: "postgres",
      connection: { driver: "postgres", url: target.url },
      listen: (channel, onNotify) => listenOnPostgres(target.url, channel, onNotify),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      migrate: () => migrateNodePg(drizzleNodePg(pool, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => {
        closed ??= pool.end();
        return closed;
      },
    };
  }
  mkdirSync(target.pgliteDir, { recursive: true });
  const client = await PGlite.create(target.pgliteDir, {
    extensions: { pg_trgm },
    ...(target.sharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${target.sharedBuffers}`] }
      : {}),
  });
  const pgliteDb = drizzlePglite(client, { schema });
  const db = pgliteDb as unknown as Database;
  let closed: Promise<void> | null = null;
  return {
    db,
    driver: "pglite",
    connection: { driver: "pglite", client },
    listen: async (channel, onNotify) => {
      const stop = await client.listen(channel, (payload) => onNotify(payload));
      return async () => {
        await stop();
      };
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
    migrate: () => migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => {
      closed ??= client.close();
      return closed;
    },
  };
}

export { schema };
