import {
  type CanModerate,
  canModerateFor,
  type FeedModerators,
  handleKey,
  type ModerationActor,
  moderatorReason,
  platformKey,
  type SocialIdentity,
} from "@curate/core";
import { eq, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { feeds, linkedAccounts } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";

export function isSuperAdmin(env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">, user: User | null) {
  return (
    user !== null &&
    env.SUPER_ADMIN_ACCOUNTS.some((a) => a.toLowerCase() === user.nearAccountId.toLowerCase())
  );
}

/** The social handles a user has linked (and so proven to be theirs). */
export async function linkedHandles(db: Database, userId: number): Promise<SocialIdentity[]> {
  const rows = await db
    .select({ platform: linkedAccounts.platformName, handle: linkedAccounts.username })
    .from(linkedAccounts)
    .where(eq(linkedAccounts.userId, userId));
  return rows;
}

/** A signed-in user as the moderator rule sees them: their account, linked handles and super-admin right. */
export async function actorOf(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
): Promise<ModerationActor> {
  return {
    nearAccountId: user.nearAccountId,
    handles: await linkedHandles(db, user.id),
    superAdmin: isSuperAdmin(env, user),
  };
}

export async function feedModerators(db: Database, feedId: string): Promise<FeedModerators | null> {
  const [row] = await db
    .select({ createdBy: feeds.createdBy, admins: feeds.admins, config: feeds.config })
    .from(feeds)
    .where(eq(feeds.id, feedId))
    .limit(1);
  return row ?? null;
}

/** Whether `user` may moderate feed `feedId`, and why; `null` when the feed does not exist. */
export async function moderationRight(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  feedId: string,
  user: User | null,
): Promise<CanModerate | null> {
  const feed = await feedModerators(db, feedId);
  if (!feed) return null;
  if (!user) return { canModerate: false, reason: "not_signed_in" };
  const reason = moderatorReason(feed, await actorOf(db, env, user));
  return { canModerate: canModerateFor(reason), reason };
}

/**
 * Someone acting by a post on a social network: their handle there and, when a Curate user has linked that
 * handle, that user's account, so creators and admins can decide by reply too.
 */
export async function actorForHandle(db: Database, identity: SocialIdentity): Promise<ModerationActor> {
  const [linked] = await queryRows<{ nearAccountId: string }>(
    db,
    sql`select u.near_account_id as "nearAccountId" from linked_accounts la join users u on u.id = la.user_id
      where (case lower(la.platform_name) when 'x' then 'twitter' else lower(la.platform_name) end) = ${platformKey(identity.platform)}
        and lower(la.username) = ${handleKey(identity.handle)}
      limit 1`,
  );
  return { nearAccountId: linked?.nearAccountId ?? null, handles: [identity] };
}
