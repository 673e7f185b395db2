import { randomInt } from "node:crypto";
import { LINK_CODE_MINUTES, type LinkCode, type Platform } from "@curate/core";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { linkCodes, linkedAccounts, type User } from "../db/schema.ts";

/** Letters and digits nobody misreads (no 0/O, 1/I/L) for a code people copy by hand into a post. */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

function newCode(): string {
  return `CUR-${Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")}`;
}

/**
 * A one-time code for the signed-in user; asking again replaces the previous one. Whoever posts or sends
 * `!link <code>` to the bot within LINK_CODE_MINUTES links that handle to this account: the network itself proves
 * the handle (for networks without an OAuth Crosspost speaks: Mastodon, Telegram, or any other).
 */
export async function createLinkCode(db: Database, user: User): Promise<LinkCode> {
  const code = newCode();
  const expiresAt = new Date(Date.now() + LINK_CODE_MINUTES * 60_000);
  await db
    .insert(linkCodes)
    .values({ code, userId: user.id, expiresAt })
    .onConflictDoUpdate({ target: linkCodes.userId, set: { code, expiresAt, createdAt: sql`now()` } });
  return { code, expiresAt: expiresAt.toISOString(), command: `!link ${code}` };
}

export interface ProvenHandle {
  platform: Platform;
  platformUserId: string;
  username: string;
  profileImage?: string | null;
}

/**
 * Spends a code for the handle that posted it: the code is gone after one use, and a handle links to one account
 * at a time (the latest proof wins, as with Crosspost's links). Answers the linked user's id, or null for a code
 * that is unknown, used or expired.
 */
export async function redeemLinkCode(
  db: Database,
  code: string,
  handle: ProvenHandle,
): Promise<number | null> {
  const [spent] = await db
    .delete(linkCodes)
    .where(and(eq(linkCodes.code, code), gt(linkCodes.expiresAt, sql`now()`)))
    .returning({ userId: linkCodes.userId });
  if (!spent) return null;
  const username = handle.username.replace(/^@+/, "");
  await db
    .insert(linkedAccounts)
    .values({
      userId: spent.userId,
      platformName: handle.platform,
      platformUserId: handle.platformUserId,
      username,
      profileImage: handle.profileImage ?? null,
    })
    .onConflictDoUpdate({
      target: [linkedAccounts.platformName, linkedAccounts.platformUserId],
      set: { userId: spent.userId, username, updatedAt: sql`now()` },
    });
  return spent.userId;
}
