import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

export interface LimitResult {
  allowed: boolean;
  /** What was counted in the current window, this attempt included. */
  count: number;
  /** When the current window ends, so callers can say how long to wait. */
  retryAfterMs: number;
}

/**
 * Counts one use of `key` in a fixed window of `windowMs` and says whether it stays within `limit`. One statement,
 * atomic under concurrency, shared by every process on the database. Refused attempts still count, so hammering a
 * closed door keeps it closed until the window ends.
 */
export async function consumeLimit(
  db: Database,
  key: string,
  limit: number,
  windowMs: number,
  cost = 1,
): Promise<LimitResult> {
  const [row] = await queryRows<{ count: number; ends: number }>(
    db,
    sql`insert into rate_limits (key, window_start, count) values (${key}, now(), ${cost})
      on conflict (key) do update set
        count = case when rate_limits.window_start <= now() - (${windowMs} * interval '1 millisecond')
          then ${cost} else rate_limits.count + ${cost} end,
        window_start = case when rate_limits.window_start <= now() - (${windowMs} * interval '1 millisecond')
          then now() else rate_limits.window_start end
      returning count, (extract(epoch from (window_start + (${windowMs} * interval '1 millisecond') - now())) * 1000)::int as ends`,
  );
  return { allowed: row.count <= limit, count: row.count, retryAfterMs: Math.max(0, Number(row.ends)) };
}

/** Forgets windows that ended long ago (the worker calls it now and then). */
export async function pruneLimits(db: Database, olderThanMs = 24 * 3600 * 1000) {
  await db.execute(
    sql`delete from rate_limits where window_start < now() - (${olderThanMs} * interval '1 millisecond')`,
  );
}
