import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

/** Decisions classified per transaction: short enough not to hold locks long, large enough to cross 1M quickly. */
export const BACKFILL_CHUNK = 5000;
const NAME = "reputation";

export interface BackfillProgress {
  cursor: number;
  done: boolean;
  /** Chunks this call ran. */
  chunks: number;
}

export interface BackfillOptions {
  chunk?: number;
  /** Stops after this many chunks (the job runs again); a test interrupts with it too. */
  maxChunks?: number;
  /** Asked before each chunk: false stops early (the worker is stopping). */
  shouldContinue?: () => boolean;
}

/**
 * Classifies the decisions written before reputation existed and adds them to the reputation tables, a chunk of
 * ids per transaction, resuming from the stored cursor (docs/decisions/0030). Each chunk and its cursor commit
 * together, so an interruption anywhere loses nothing and counts nothing twice; decisions written meanwhile are
 * classified by their trigger and skipped here.
 */
export async function backfillReputation(
  db: Database,
  options: BackfillOptions = {},
): Promise<BackfillProgress> {
  const chunk = options.chunk ?? BACKFILL_CHUNK;
  // Made on first use rather than by the migration, so a new database holds no rows an import would refuse.
  await db.execute(sql`insert into backfill_cursors (name) values (${NAME}) on conflict (name) do nothing`);
  let chunks = 0;
  for (;;) {
    if (options.maxChunks !== undefined && chunks >= options.maxChunks) break;
    if (options.shouldContinue && !options.shouldContinue()) break;
    const step = await db.transaction(async (tx) => {
      // The cursor row is locked: two workers never classify the same chunk.
      const [state] = await queryRows<{ cursor: number; done: boolean }>(
        tx,
        sql`select cursor::bigint as cursor, done_at is not null as done from backfill_cursors
          where name = ${NAME} for update`,
      );
      if (!state || state.done) return { cursor: Number(state?.cursor ?? 0), done: true };
      const [{ last }] = await queryRows<{ last: string | null }>(
        tx,
        sql`select curate_backfill_reputation(${state.cursor}, ${chunk})::text as last`,
      );
      if (last === null) {
        await tx.execute(
          sql`update backfill_cursors set done_at = now(), updated_at = now() where name = ${NAME}`,
        );
        return { cursor: Number(state.cursor), done: true };
      }
      await tx.execute(
        sql`update backfill_cursors set cursor = ${last}, updated_at = now() where name = ${NAME}`,
      );
      return { cursor: Number(last), done: false };
    });
    if (step.done) return { ...step, chunks };
    chunks++;
  }
  const [state] = await queryRows<{ cursor: number; done: boolean }>(
    db,
    sql`select cursor::bigint as cursor, done_at is not null as done from backfill_cursors where name = ${NAME}`,
  );
  return { cursor: Number(state?.cursor ?? 0), done: Boolean(state?.done), chunks };
}
