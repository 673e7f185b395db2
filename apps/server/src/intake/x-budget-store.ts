import { eq, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { xSearchWaits } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { type BudgetWindow, xBudgetWindow } from "./x-budget.ts";

/** The window's count, in `rate_limits` like every limit, so every API and worker process spends the same one. */
const CALLS_KEY = "x-api:calls";
/** Which window's spent budget was last logged: one line per window over every worker. */
const SPENT_LOGGED_KEY = "x-api:spent-logged";

/** The operator's X API budget (X_API_CALLS_PER_HOUR) as the database keeps it for every process. */
export interface XBudget {
  readonly limit: number;
  /** The clock windows are read on (tests move it). */
  clock(): Date;
  /**
   * Takes one call from the window `clock()` falls in, while the window's count stays under `ceiling` (the whole
   * limit for the bot's own calls, less the bot's reserve for feed searches). A refused call is not counted.
   */
  take(ceiling?: number): Promise<{ allowed: boolean; window: BudgetWindow }>;
  /** Calls every worker made in the window so far. */
  spent(window: BudgetWindow): Promise<number>;
  /** True for the first caller in a window, so that a spent budget is logged once per window, not per call. */
  firstToReportSpent(window: BudgetWindow): Promise<boolean>;
}

export function createXBudget(db: Database, options: { limit: number; clock?: () => Date }): XBudget {
  const clock = options.clock ?? (() => new Date());
  return {
    limit: options.limit,
    clock,
    async take(ceiling = options.limit) {
      const window = xBudgetWindow(clock());
      if (Math.min(ceiling, options.limit) < 1) return { allowed: false, window };
      // A row of an earlier window starts over at this one; a worker whose clock lags counts into the newer one.
      const rows = await queryRows<{ count: number }>(
        db,
        sql`insert into rate_limits (key, window_start, count) values (${CALLS_KEY}, ${window.start.toISOString()}, 1)
          on conflict (key) do update set
            count = case when rate_limits.window_start < excluded.window_start then 1 else rate_limits.count + 1 end,
            window_start = greatest(rate_limits.window_start, excluded.window_start)
          where rate_limits.window_start < excluded.window_start
            or rate_limits.count < ${Math.min(ceiling, options.limit)}
          returning count`,
      );
      return { allowed: rows.length > 0, window };
    },
    async spent(window) {
      const [row] = await queryRows<{ count: number }>(
        db,
        sql`select count from rate_limits where key = ${CALLS_KEY} and window_start >= ${window.start.toISOString()}`,
      );
      return row?.count ?? 0;
    },
    async firstToReportSpent(window) {
      const rows = await queryRows<{ key: string }>(
        db,
        sql`insert into rate_limits (key, window_start, count) values (${SPENT_LOGGED_KEY}, ${window.start.toISOString()}, 1)
          on conflict (key) do update set window_start = excluded.window_start
          where rate_limits.window_start < excluded.window_start
          returning key`,
      );
      return rows.length > 0;
    },
  };
}

/** Acknowledgements on X asked for and not yet sent: each will spend a call. */
export async function waitingXAcknowledgements(db: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from processing_jobs j
      join processing_steps s on s.job_id = j.id
      where j.kind = 'acknowledgement' and j.status in ('pending', 'processing')
        and s.status <> 'success' and s.input->>'network' = 'twitter'`,
  );
  return row?.n ?? 0;
}

export interface WaitingFeed {
  feedId: string;
  searches: number;
  until: Date;
}

/** Replaces the set of waiting feeds with this tick's; a feed that keeps waiting keeps its `since`. */
export async function saveXSearchWaits(db: Database, waits: readonly WaitingFeed[], now: Date) {
  await db.transaction(async (tx) => {
    const waiting = waits.map((wait) => wait.feedId);
    await tx
      .delete(xSearchWaits)
      .where(waiting.length ? notInArray(xSearchWaits.feedId, waiting) : undefined);
    if (waits.length === 0) return;
    const rows = JSON.stringify(
      waits.map((wait) => ({
        feed_id: wait.feedId,
        searches: wait.searches,
        until: wait.until.toISOString(),
      })),
    );
    // Joined with feeds: one deleted since the tick read it has nothing to wait for.
    await tx.execute(
      sql`insert into x_search_waits (feed_id, searches, since, until)
        select f.id, w.searches, ${now.toISOString()}, w.until
        from jsonb_to_recordset(${rows}::jsonb) as w(feed_id text, searches int, until timestamptz)
        join feeds f on f.id = w.feed_id
        on conflict (feed_id) do update set searches = excluded.searches, until = excluded.until`,
    );
  });
}

/** What the feed page says about its X searches: how many wait for the shared budget, since and until when. */
export async function xSearchWaitOf(db: Database, feedId: string) {
  const [row] = await db.select().from(xSearchWaits).where(eq(xSearchWaits.feedId, feedId));
  return row
    ? { searches: row.searches, since: row.since.toISOString(), until: row.until.toISOString() }
    : null;
}

/** The budget as an X client asks it before each call: the whole limit, or `ceiling` for feed searches. */
export function clientBudget(budget: XBudget, ceiling?: number) {
  return async () => {
    const { allowed, window } = await budget.take(ceiling);
    return { allowed, retryAfterMs: Math.max(0, window.end.getTime() - budget.clock().getTime()) };
  };
}
