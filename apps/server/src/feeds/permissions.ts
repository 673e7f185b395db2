import {
  type CanModerate,
  canManageFor,
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
import { AppError } from "../errors.ts";

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
  const actors = await actorsForHandles(db, identity.platform, [identity.handle]);
  return actors.get(handleKey(identity.handle)) ?? { nearAccountId: null, handles: [identity] };
}

/** `actorForHandle` for many handles of one platform in one query (intake applies a page of mentions at once). */
export async function actorsForHandles(
  db: Database,
  platform: string,
  handles: readonly string[],
): Promise<Map<string, ModerationActor>> {
  const keys = [...new Set(handles.map(handleKey))];
  const linked = keys.length
    ? await queryRows<{ handle: string; nearAccountId: string; linked: SocialIdentity[] }>(
        db,
        // Every handle the account has linked comes along: one person approves from any of their networks.
        sql`select distinct on (lower(la.username)) lower(la.username) as handle, u.near_account_id as "nearAccountId",
            (select json_agg(json_build_object('platform', other.platform_name, 'handle', other.username))
              from linked_accounts other where other.user_id = la.user_id) as linked
          from linked_accounts la join users u on u.id = la.user_id
          where (case lower(la.platform_name) when 'x' then 'twitter' else lower(la.platform_name) end) = ${platformKey(platform)}
            and lower(la.username) in (${sql.join(
              keys.map((key) => sql`${key}`),
              sql`, `,
            )})
          order by lower(la.username)`,
      )
    : [];
  const byHandle = new Map(linked.map((row) => [row.handle, row]));
  return new Map(
    handles.map((handle) => {
      const account = byHandle.get(handleKey(handle));
      return [
        handleKey(handle),
        {
          nearAccountId: account?.nearAccountId ?? null,
          handles: [{ platform, handle }, ...(account?.linked ?? [])],
        },
      ];
    }),
  );
}

/** Whether `user` may edit or delete the feed: its creator, its admins and super admins. */
export async function canManageFeed(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  feedId: string,
  user: User,
): Promise<boolean> {
  const right = await moderationRight(db, env, feedId, user);
  return right !== null && canManageFor(right.reason);
}

/** May `user` edit or delete the feed (its creator, its admins and super admins)? 404 or 403 otherwise. */
export async function assertCanManageFeed(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  feedId: string,
  user: User,
) {
  const right = await moderationRight(db, env, feedId, user);
  if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
  if (!canManageFor(right.reason)) {
    throw AppError.forbidden(`Only the feed's owner or admins can change "${feedId}".`);
  }
}
