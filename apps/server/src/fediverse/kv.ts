import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { fediverseKv } from "../db/schema.ts";

/** A key as one text column: its JSON array, so a prefix of parts is a prefix of the text (up to the bracket). */
function encode(key: KvKey): string {
  return JSON.stringify(key);
}

function expiry(options?: KvStoreSetOptions): Date | null {
  if (!options?.ttl) return null;
  return new Date(Date.now() + options.ttl.total("millisecond"));
}

/**
 * Values are stored boxed (`{ v }`): Fedify stores `null` too (a key it could not fetch, cached as such), and a
 * bare JSON null would be SQL NULL.
 */
interface Boxed {
  v: unknown;
}
const box = (value: unknown): Boxed => ({ v: value });

const live = () => or(isNull(fediverseKv.expiresAt), gt(fediverseKv.expiresAt, sql`now()`));

/**
 * Fedify's key-value store (its caches of remote keys and documents, inbox idempotency) on the project's own
 * database, so both drivers keep it and nothing else needs running (decision 0037). Expired entries read as
 * missing; each `set` also sweeps a few expired ones so the table does not grow without bound.
 */
export class DrizzleKvStore implements KvStore {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const [row] = await this.db
      .select({ value: fediverseKv.value })
      .from(fediverseKv)
      .where(and(eq(fediverseKv.key, encode(key)), live()));
    return row ? ((row.value as Boxed).v as T) : undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const expiresAt = expiry(options);
    await this.db
      .insert(fediverseKv)
      .values({ key: encode(key), value: box(value), expiresAt })
      .onConflictDoUpdate({ target: fediverseKv.key, set: { value: box(value), expiresAt } });
    await this.db.execute(
      sql`delete from fediverse_kv where key in (select key from fediverse_kv where expires_at <= now() limit 20)`,
    );
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.delete(fediverseKv).where(eq(fediverseKv.key, encode(key)));
  }

  async cas(
    key: KvKey,
    expectedValue: unknown,
    newValue: unknown,
    options?: KvStoreSetOptions,
  ): Promise<boolean> {
    const encoded = encode(key);
    const expiresAt = expiry(options);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ value: fediverseKv.value, expiresAt: fediverseKv.expiresAt })
        .from(fediverseKv)
        .where(eq(fediverseKv.key, encoded))
        .for("update");
      const current =
        row && (row.expiresAt === null || row.expiresAt > new Date()) ? (row.value as Boxed).v : undefined;
      if (JSON.stringify(current) !== JSON.stringify(expectedValue)) return false;
      if (newValue === undefined) {
        await tx.delete(fediverseKv).where(eq(fediverseKv.key, encoded));
        return true;
      }
      await tx
        .insert(fediverseKv)
        .values({ key: encoded, value: box(newValue), expiresAt })
        .onConflictDoUpdate({ target: fediverseKv.key, set: { value: box(newValue), expiresAt } });
      return true;
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const exact = prefix ? encode(prefix) : null;
    // `["a","b"]` lists itself and everything under `["a","b",`.
    const under = exact ? `${exact.slice(0, -1)},` : null;
    const rows = await this.db
      .select({ key: fediverseKv.key, value: fediverseKv.value })
      .from(fediverseKv)
      .where(
        and(
          live(),
          exact && under
            ? or(eq(fediverseKv.key, exact), sql`left(${fediverseKv.key}, ${under.length}) = ${under}`)
            : undefined,
        ),
      )
      .orderBy(fediverseKv.key);
    for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: (row.value as Boxed).v };
  }
}

/** Removes expired entries (the workers' sweep). */
export async function sweepExpiredKv(db: Database): Promise<void> {
  await db.delete(fediverseKv).where(lte(fediverseKv.expiresAt, new Date()));
}
