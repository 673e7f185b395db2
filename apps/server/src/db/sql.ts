import { createHash } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./index.ts";

/** A timestamptz rendered as an ISO 8601 UTC string, so JSON built in SQL carries ISO dates. */
export function isoUtc(column: SQL | string): SQL {
  const col = typeof column === "string" ? sql.raw(column) : column;
  return sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A LIKE pattern matching `text` anywhere, with %, _ and \ taken literally (use with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();

/**
 * Like queryRows, as a named prepared statement: on PostgreSQL each connection plans the statement once and
 * reuses the plan, which for a large read (a list page with its JSON) costs about as much as running it. Only
 * for statements whose best plan does not depend on the values bound (never a search pattern); the name is the
 * text's hash, so one name is always one text.
 */
export async function queryRowsPrepared<T>(db: Database, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `curate_${createHash("sha1").update(built.sql).digest("hex").slice(0, 16)}`;
  const prepared = db._.session.prepareQuery(built, undefined, name, false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}

/** Locks this process holds, per database: what excludes callers that share PGlite's one session. */
const heldInProcess = new WeakMap<Database, Set<string>>();

/**
 * Runs `work` holding the lock `name` across every process on the database, or answers `{ ran: false }` at once
 * when another holds it. On PostgreSQL the lock is `pg_try_advisory_xact_lock` in a transaction kept open around
 * `work` (which uses connections of its own). PGlite is one process with one session, whose advisory locks are
 * re-entrant to every caller of that session, so there the process's own bookkeeping is the lock.
 */
export async function tryExclusive<T>(
  db: Database,
  name: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  if ((db as { $client?: unknown }).$client instanceof PGlite) {
    const held = heldInProcess.get(db) ?? new Set<string>();
    heldInProcess.set(db, held);
    if (held.has(name)) return { ran: false };
    held.add(name);
    try {
      return { ran: true, value: await work() };
    } finally {
      held.delete(name);
    }
  }
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(hashtext(${name})) as locked`,
    );
    if (!lock?.locked) return { ran: false } as const;
    return { ran: true, value: await work() } as const;
  });
}
