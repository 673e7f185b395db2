import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { processingSteps } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import type { ThrottleRule } from "../plugins/types.ts";

/** A send slot a distribution holds: where (the hashed channel keys) and when it may send. */
export interface Reservation {
  keys: string[];
  /** Epoch milliseconds. */
  at: number;
}

/** A send slot this close is waited for in the step; a later one sends the job back to the queue until then. */
const MAX_INLINE_WAIT_MS = 1500;

const waitFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Waits for a step's turn when it is close. A later turn puts the step back to pending (waiting is not a failed
 * attempt) and answers the reservation, which the job keeps while the queue holds it until then.
 */
export async function awaitTurn(
  db: Database,
  stepId: string,
  turn: Reservation,
  signal: AbortSignal,
): Promise<Reservation | null> {
  const waitMs = turn.at - Date.now();
  if (waitMs > MAX_INLINE_WAIT_MS) {
    await db
      .update(processingSteps)
      .set({
        status: "pending",
        attempts: sql`greatest(0, ${processingSteps.attempts} - 1)`,
        updatedAt: sql`now()`,
      })
      .where(eq(processingSteps.id, stepId));
    return turn;
  }
  if (waitMs > 0) await waitFor(waitMs, signal);
  return null;
}

/** Channel keys as stored: the plugin's name and a hash, so a key made of a token never reaches the database. */
export function slotKeys(pluginName: string, rules: ThrottleRule[]): string[] {
  return rules.map(
    (rule) => `${pluginName}:${createHash("sha256").update(rule.key).digest("hex").slice(0, 32)}`,
  );
}

/**
 * Takes the next free slot of each of the channel's keys (GCRA: each key's next free time moves on by its interval)
 * and returns when all of them allow a send. Every caller gets its own slot, on every worker, so a thousand
 * publications to one chat are spread at the chat's rate instead of colliding.
 */
export async function reserveSlot(
  db: Database,
  pluginName: string,
  rules: ThrottleRule[],
): Promise<Reservation> {
  const keys = slotKeys(pluginName, rules);
  let at = Date.now();
  for (const [index, key] of keys.entries()) {
    const intervalMs = Math.max(1, Math.round(rules[index].intervalMs));
    // Measured against the database's clock and turned into this worker's time, so clocks need not agree.
    const [row] = await queryRows<{ waitMs: string }>(
      db,
      sql`insert into channel_slots (key, next_at)
        values (${key}, now() + ${intervalMs} * interval '1 millisecond')
        on conflict (key) do update
          set next_at = greatest(channel_slots.next_at, now()) + ${intervalMs} * interval '1 millisecond'
        returning (extract(epoch from (next_at - now())) * 1000)::float8 - ${intervalMs} as "waitMs"`,
    );
    at = Math.max(at, Date.now() + Number(row.waitMs));
  }
  return { keys, at };
}

/** A channel asked to wait (a 429 with Retry-After): nobody sharing its keys sends before then. */
export async function holdSlots(db: Database, keys: string[], waitMs: number): Promise<void> {
  for (const key of keys) {
    await db.execute(sql`insert into channel_slots (key, next_at)
      values (${key}, now() + ${Math.round(waitMs)} * interval '1 millisecond')
      on conflict (key) do update set next_at = greatest(channel_slots.next_at, excluded.next_at)`);
  }
}
