import { type SQL, sql } from "drizzle-orm";
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
