import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { FEED_SECRET_LIMITS, type FeedSecret } from "@curate/core";
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { feedSecrets } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed } from "./permissions.ts";

/** The key feed secrets are sealed with, and earlier keys still read during a rotation. */
export type SecretsKeyRing = AppEnv["SECRETS_KEYS"];

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A fingerprint naming a key on each sealed row, so a rotation finds what an old key sealed. */
export function keyIdOf(key: Buffer): string {
  return createHmac("sha256", key).update("curate feed secrets: key id").digest("hex").slice(0, 16);
}

// The feed and the name are bound in: a sealed value moved to another feed or name does not open.
const associatedData = (feedId: string, name: string) => Buffer.from(`${feedId}\u0000${name}`, "utf8");

function seal(key: Buffer, feedId: string, name: string, value: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(associatedData(feedId, name));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

function open(key: Buffer, feedId: string, name: string, sealed: string): string {
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(associatedData(feedId, name));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    "utf8",
  );
}

function keyFor(ring: SecretsKeyRing, keyId: string): Buffer | undefined {
  return [ring.current, ...ring.previous].find(
    (key): key is Buffer => key !== null && keyIdOf(key) === keyId,
  );
}

function currentKey(ring: SecretsKeyRing): Buffer {
  if (!ring.current) {
    throw AppError.unavailable(
      "This server cannot store feed secrets yet: its operator has to set SECRETS_KEY (see the README).",
    );
  }
  return ring.current;
}

/** Names and dates of a feed's secrets, for its owners and admins. */
export async function listFeedSecrets(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
): Promise<FeedSecret[]> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const rows = await db
    .select({ name: feedSecrets.name, createdAt: feedSecrets.createdAt, updatedAt: feedSecrets.updatedAt })
    .from(feedSecrets)
    .where(eq(feedSecrets.feedId, id))
    .orderBy(asc(feedSecrets.name));
  return rows.map((row) => ({
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** Adds a secret or replaces its value. Returns it as the list shows it, never the value. */
export async function setFeedSecret(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
  name: string,
  value: string,
): Promise<FeedSecret & { replaced: boolean }> {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const key = currentKey(env.SECRETS_KEYS);
  return db.transaction(async (tx) => {
    // Serialises concurrent additions to one feed, so the per-feed cap holds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`feed-secrets:${id}`}))`);
    const [{ others }] = await tx
      .select({ others: count() })
      .from(feedSecrets)
      .where(and(eq(feedSecrets.feedId, id), ne(feedSecrets.name, name)));
    const [existing] = await tx
      .select({ name: feedSecrets.name })
      .from(feedSecrets)
      .where(and(eq(feedSecrets.feedId, id), eq(feedSecrets.name, name)));
    if (!existing && others >= FEED_SECRET_LIMITS.perFeed) {
      throw AppError.validation(
        `A feed holds at most ${FEED_SECRET_LIMITS.perFeed} secrets: delete one it no longer uses first.`,
      );
    }
    const sealed = seal(key, id, name, value);
    const [row] = await tx
      .insert(feedSecrets)
      .values({ feedId: id, name, sealed, keyId: keyIdOf(key), createdBy: user.nearAccountId })
      .onConflictDoUpdate({
        target: [feedSecrets.feedId, feedSecrets.name],
        set: { sealed, keyId: keyIdOf(key), updatedAt: sql`now()` },
      })
      .returning({
        name: feedSecrets.name,
        createdAt: feedSecrets.createdAt,
        updatedAt: feedSecrets.updatedAt,
      });
    return {
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      replaced: existing !== undefined,
    };
  });
}

export async function deleteFeedSecret(db: Database, env: AppEnv, user: User, feedId: string, name: string) {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  const removed = await db
    .delete(feedSecrets)
    .where(and(eq(feedSecrets.feedId, id), eq(feedSecrets.name, name)))
    .returning({ name: feedSecrets.name });
  if (removed.length === 0) throw AppError.notFound(`Feed "${id}" has no secret named ${name}.`);
}

/**
 * A feed's secrets opened, for filling its config's placeholders at run time. A value no configured key opens
 * (SECRETS_KEY changed without SECRETS_KEY_PREVIOUS) is left out and logged by name, so its step says which
 * variable is missing instead of failing on garbage.
 */
export async function feedSecretValues(
  db: Database,
  ring: SecretsKeyRing,
  feedId: string,
  logger: Logger,
): Promise<Record<string, string>> {
  const rows = await db
    .select({ name: feedSecrets.name, sealed: feedSecrets.sealed, keyId: feedSecrets.keyId })
    .from(feedSecrets)
    .where(eq(feedSecrets.feedId, feedId.toLowerCase()));
  const values: Record<string, string> = {};
  for (const row of rows) {
    const key = keyFor(ring, row.keyId);
    try {
      if (!key) throw new Error("no configured key has this id");
      values[row.name] = open(key, feedId.toLowerCase(), row.name, row.sealed);
    } catch {
      logger.warn(
        { feedId, secret: row.name, keyId: row.keyId },
        "a feed secret could not be opened with SECRETS_KEY or SECRETS_KEY_PREVIOUS",
      );
    }
  }
  return values;
}

/**
 * The rotation (README, "Rotating SECRETS_KEY"): values sealed by a previous key are opened and sealed again under
 * the current one, a batch at a time. Returns how many were re-sealed and how many no configured key opens.
 */
export async function resealFeedSecrets(
  db: Database,
  ring: SecretsKeyRing,
): Promise<{ resealed: number; unreadable: number }> {
  if (!ring.current) return { resealed: 0, unreadable: 0 };
  const current = ring.current;
  const currentId = keyIdOf(current);
  const rows = await db
    .select({
      feedId: feedSecrets.feedId,
      name: feedSecrets.name,
      sealed: feedSecrets.sealed,
      keyId: feedSecrets.keyId,
    })
    .from(feedSecrets)
    .where(ne(feedSecrets.keyId, currentId));
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    const key = keyFor(ring, row.keyId);
    let value: string;
    try {
      if (!key) throw new Error("unknown key");
      value = open(key, row.feedId, row.name, row.sealed);
    } catch {
      unreadable++;
      continue;
    }
    // Only if untouched since read: a value set meanwhile is already under the current key.
    const updated = await db
      .update(feedSecrets)
      .set({ sealed: seal(current, row.feedId, row.name, value), keyId: currentId })
      .where(
        and(
          eq(feedSecrets.feedId, row.feedId),
          eq(feedSecrets.name, row.name),
          eq(feedSecrets.keyId, row.keyId),
        ),
      )
      .returning({ name: feedSecrets.name });
    resealed += updated.length;
  }
  return { resealed, unreadable };
}

/** How many feed secrets exist: a production server without SECRETS_KEY refuses to start while any do. */
export async function feedSecretCount(db: Database): Promise<number> {
  const [row] = await db.select({ total: count() }).from(feedSecrets);
  return row?.total ?? 0;
}
