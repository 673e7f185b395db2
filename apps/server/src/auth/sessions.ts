import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { sessions, type User, users } from "../db/schema.ts";

export type { User };

export const SESSION_COOKIE = "curate_session";
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const hashId = (id: string) => createHash("sha256").update(id).digest("hex");
const mac = (secret: string, id: string) => createHmac("sha256", secret).update(id).digest("base64url");

/** Cookie value: a random id plus its HMAC, so forged cookies are refused before any database read. */
function cookieValue(secret: string, id: string) {
  return `${id}.${mac(secret, id)}`;
}

function sessionIdFromCookie(secret: string, value: string): string | null {
  const [id, signature, extra] = value.split(".");
  if (!id || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, id));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

export async function createSession(db: Database, secret: string, userId: number, userAgent?: string) {
  const id = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db
    .insert(sessions)
    .values({ idHash: hashId(id), userId, expiresAt, userAgent: userAgent?.slice(0, 300) });
  return { cookie: cookieValue(secret, id), expiresAt };
}

/** The user of a live (unexpired, unrevoked) session, or null. */
export async function userForSessionCookie(
  db: Database,
  secret: string,
  cookie: string,
): Promise<User | null> {
  const id = sessionIdFromCookie(secret, cookie);
  if (!id) return null;
  const [row] = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(eq(sessions.idHash, hashId(id)), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())),
    )
    .limit(1);
  return row?.user ?? null;
}

export async function revokeSession(db: Database, secret: string, cookie: string) {
  const id = sessionIdFromCookie(secret, cookie);
  if (!id) return;
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(eq(sessions.idHash, hashId(id)));
}
