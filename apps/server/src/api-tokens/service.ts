import { createHash, randomBytes } from "node:crypto";
import {
  API_TOKEN_HINT_LENGTH,
  API_TOKEN_LIMITS,
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  type ApiScope,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenCreateRequest,
  type ApiTokenUse,
  type Paged,
} from "@curate/core";
import { and, count, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { apiTokens, apiTokenUses, type User, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";

/** What a request with a valid token acts as: the token (for its scopes and attribution) and its owner. */
export interface ApiCredential {
  id: string;
  scopes: ApiScope[];
  user: User;
}

/** Why a presented token is refused; each is a 401 whose message says which, so its owner knows what to fix. */
export type RefusedToken = "malformed" | "unknown" | "revoked" | "expired";

export const REFUSED_TOKEN_MESSAGES: Record<RefusedToken, string> = {
  malformed: 'Send the API token as "Authorization: Bearer curate_pat_…".',
  unknown: "This API token is not valid.",
  revoked: "This API token was revoked.",
  expired: "This API token has expired.",
};

/** A token's uses older than this are forgotten by the worker's housekeeping. */
export const TOKEN_USE_RETENTION_MS = 90 * 24 * 3600 * 1000;

/** Last-used times are written at most this often per token, so a busy script does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * SHA-256 of the whole token. The secret is 32 random bytes, so no salt or slow hash is needed: nothing about it can
 * be guessed, and one indexed lookup finds it (docs/decisions/0029).
 */
const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

type TokenRow = typeof apiTokens.$inferSelect;

function statusOf(row: TokenRow, now: Date): ApiToken["status"] {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  return "active";
}

function tokenView(row: TokenRow, now = new Date()): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    hint: `${row.hint}…`,
    status: statusOf(row, now),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

const live = (now: Date) =>
  and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));

/** Makes a token for the signed-in user; the secret is in the answer this once and nowhere else. */
export async function createApiToken(
  db: Database,
  user: User,
  request: ApiTokenCreateRequest,
  now = new Date(),
): Promise<ApiTokenCreated> {
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await db.transaction(async (tx) => {
    // Taken under the user's row lock, so two requests at once cannot both pass the limit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    const [{ active }] = await tx
      .select({ active: count() })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, user.id), live(now)));
    if (active >= API_TOKEN_LIMITS.perAccount) {
      throw AppError.conflict(
        `You have ${API_TOKEN_LIMITS.perAccount} active API tokens, the most an account may hold; revoke one first.`,
      );
    }
    const [inserted] = await tx
      .insert(apiTokens)
      .values({
        id: `tok_${randomBytes(12).toString("base64url")}`,
        userId: user.id,
        name: request.name,
        scopes: request.scopes,
        secretHash: hashSecret(secret),
        hint: secret.slice(0, API_TOKEN_PREFIX.length + API_TOKEN_HINT_LENGTH),
        createdAt: now,
        expiresAt: request.expiresInDays
          ? new Date(now.getTime() + request.expiresInDays * 86_400_000)
          : null,
      })
      .returning();
    return inserted;
  });
  return { token: tokenView(row, now), secret };
}

/** The user's tokens, newest first, revoked and expired ones included. */
export async function listApiTokens(
  db: Database,
  user: User,
  query: { page: number; limit: number },
): Promise<Paged<ApiToken>> {
  const now = new Date();
  const rows = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, user.id))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(query.limit + 1)
    .offset(query.page * query.limit);
  const [{ total }] = await db
    .select({ total: count() })
    .from(apiTokens)
    .where(eq(apiTokens.userId, user.id));
  return {
    items: rows.slice(0, query.limit).map((row) => tokenView(row, now)),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: rows.length > query.limit,
      totalCount: total,
    },
  };
}

/** Revokes one of the user's tokens at once; revoking a revoked token changes nothing. */
export async function revokeApiToken(db: Database, user: User, id: string): Promise<ApiToken> {
  const mine = and(eq(apiTokens.id, id), eq(apiTokens.userId, user.id));
  const [revoked] = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(mine, isNull(apiTokens.revokedAt)))
    .returning();
  if (revoked) return tokenView(revoked);
  const [existing] = await db.select().from(apiTokens).where(mine);
  // Another account's token answers as no token at all.
  if (!existing) throw AppError.notFound(`No API token "${id}".`);
  return tokenView(existing);
}

/**
 * The credential a presented token stands for, or why it is refused. A live token's last use is noted (at most once
 * a minute).
 */
export async function credentialForToken(
  db: Database,
  secret: string,
  now = new Date(),
): Promise<ApiCredential | RefusedToken> {
  if (!API_TOKEN_PATTERN.test(secret)) return "malformed";
  const [row] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.secretHash, hashSecret(secret)))
    .limit(1);
  if (!row) return "unknown";
  const status = statusOf(row.token, now);
  if (status !== "active") return status;
  if (!row.token.lastUsedAt || now.getTime() - row.token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, row.token.id),
          or(
            isNull(apiTokens.lastUsedAt),
            lt(apiTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
          ),
        ),
      );
  }
  return { id: row.token.id, scopes: row.token.scopes, user: row.user };
}

/** Notes a change asked for with a token: the route as documented and the answer's status, never the request. */
export async function recordTokenUse(
  db: Database,
  use: { tokenId: string; userId: number; method: string; route: string; status: number },
) {
  await db.insert(apiTokenUses).values(use);
}

/** The changes the user's tokens made, newest first: the owner's private activity. */
export async function listTokenUses(
  db: Database,
  user: User,
  query: { page: number; limit: number },
): Promise<Paged<ApiTokenUse>> {
  const rows = await db
    .select({
      id: apiTokenUses.id,
      tokenId: apiTokenUses.tokenId,
      tokenName: apiTokens.name,
      method: apiTokenUses.method,
      route: apiTokenUses.route,
      status: apiTokenUses.status,
      at: apiTokenUses.at,
    })
    .from(apiTokenUses)
    .innerJoin(apiTokens, eq(apiTokens.id, apiTokenUses.tokenId))
    .where(eq(apiTokenUses.userId, user.id))
    .orderBy(desc(apiTokenUses.at), desc(apiTokenUses.id))
    .limit(query.limit + 1)
    .offset(query.page * query.limit);
  const [{ total }] = await db
    .select({ total: count() })
    .from(apiTokenUses)
    .where(eq(apiTokenUses.userId, user.id));
  return {
    items: rows.slice(0, query.limit).map((row) => ({ ...row, at: row.at.toISOString() })),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: rows.length > query.limit,
      totalCount: total,
    },
  };
}

/** Forgets token uses past their retention (the worker's housekeeping). */
export async function pruneTokenUses(db: Database, now = new Date()) {
  await db.delete(apiTokenUses).where(lt(apiTokenUses.at, new Date(now.getTime() - TOKEN_USE_RETENTION_MS)));
}
