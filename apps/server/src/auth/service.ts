import { randomBytes } from "node:crypto";
import { AUTH_MESSAGE, base64Encode, NEP413_NONCE_LENGTH } from "@curate/core";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { hasFullAccessKey } from "../clients/near-rpc.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { authRequests, users } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { createSession } from "./sessions.ts";
import { implicitAccountOwnsKey, isImplicitAccount, parseToken, verifyNep413Signature } from "./signature.ts";

export const NONCE_TTL_MS = 5 * 60 * 1000;

const failed = (reason: string) => new AppError("UNAUTHENTICATED", `Sign-in failed: ${reason}`);

/** Issues a single-use nonce for the account to sign; no user row exists until verification succeeds. */
export async function initiateLogin(db: Database, env: AppEnv, accountId: string) {
  const nonce = base64Encode(randomBytes(NEP413_NONCE_LENGTH));
  const now = Date.now();
  await db.delete(authRequests).where(lt(authRequests.expiresAt, new Date(now)));
  await db.insert(authRequests).values({
    nonce,
    accountId,
    recipient: env.AUTH_RECIPIENT,
    expiresAt: new Date(now + NONCE_TTL_MS),
  });
  return { nonce, recipient: env.AUTH_RECIPIENT, message: AUTH_MESSAGE };
}

/**
 * Verifies a signed-message token and opens a session. The nonce is spent on the first attempt,
 * whatever its outcome, so a captured token can never be replayed.
 */
export async function verifyLogin(
  db: Database,
  env: AppEnv,
  input: { token: string; accountId: string; userAgent?: string },
) {
  const token = parseToken(input.token);
  if (token.accountId !== input.accountId) throw failed("the token was signed for another account.");
  if (!token.message.startsWith("Authorize")) throw failed("the signed message is not an authorization.");
  if (token.recipient !== env.AUTH_RECIPIENT) throw failed("the token was signed for another recipient.");

  const nonce = base64Encode(token.nonce);
  const [request] = await db
    .update(authRequests)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authRequests.nonce, nonce),
        eq(authRequests.accountId, token.accountId),
        isNull(authRequests.usedAt),
        gt(authRequests.expiresAt, new Date()),
      ),
    )
    .returning({ nonce: authRequests.nonce });
  if (!request) throw failed("the sign-in request is unknown, expired or already used.");

  const publicKey = verifyNep413Signature(token);
  const owned = isImplicitAccount(token.accountId)
    ? implicitAccountOwnsKey(token.accountId, publicKey)
    : await hasFullAccessKey(env.NEAR_RPC_URL, token.accountId, publicKey);
  if (!owned) throw failed("the key does not belong to this account.");

  const [user] = await db
    .insert(users)
    .values({ nearAccountId: token.accountId })
    .onConflictDoUpdate({ target: users.nearAccountId, set: { updatedAt: sql`now()` } })
    .returning();
  const session = await createSession(db, env.SESSION_SECRET, user.id, input.userAgent);
  return { user, session };
}
