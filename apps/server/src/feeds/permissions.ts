import { type SQL, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

export type ModeratorReason =
  | "creator"
  | "admin"
  | "super_admin"
  | "approver"
  | "not_moderator"
  | "not_signed_in";

const platformKey = (expr: SQL) => sql`(case lower(${expr}) when 'x' then 'twitter' else lower(${expr}) end)`;

/**
 * SQL conditions on feed row `f` for the moderator rule of DESIGN §4, all in the database so checking a feed
 * (or listing a user's feeds) costs one query: creator, admin, or an approver by NEAR account or by a linked
 * social handle of the same platform (case-insensitive, leading @ ignored).
 */
export function moderatorConditions(user: User) {
  const account = user.nearAccountId.toLowerCase();
  const approvers = sql`case when jsonb_typeof(f.config->'moderation'->'approvers') = 'object'
    then f.config->'moderation'->'approvers' else '{}'::jsonb end`;
  return {
    creator: sql`lower(coalesce(f.created_by, '')) = ${account}`,
    admin: sql`exists (select 1 from jsonb_array_elements_text(
      case when jsonb_typeof(f.admins) = 'array' then f.admins else '[]'::jsonb end) a(account)
      where lower(a.account) = ${account})`,
    approver: sql`exists (
      select 1 from jsonb_each(${approvers}) p(platform, handles),
        jsonb_array_elements_text(case when jsonb_typeof(p.handles) = 'array' then p.handles else '[]'::jsonb end) h(handle)
      where lower(ltrim(h.handle, '@')) = ${account}
        or exists (select 1 from linked_accounts la where la.user_id = ${user.id}
          and ${platformKey(sql`la.platform_name`)} = ${platformKey(sql`p.platform`)}
          and lower(la.username) = lower(ltrim(h.handle, '@'))))`,
  };
}

export function isSuperAdmin(env: AppEnv, user: User | null) {
  return (
    user !== null &&
    env.SUPER_ADMIN_ACCOUNTS.some((a) => a.toLowerCase() === user.nearAccountId.toLowerCase())
  );
}

/** Whether `user` may moderate feed `feedId`, and why; `null` when the feed does not exist. */
export async function moderationRight(
  db: Database,
  env: AppEnv,
  feedId: string,
  user: User | null,
): Promise<{ canModerate: boolean; reason: ModeratorReason } | null> {
  if (!user) {
    const [feed] = await queryRows<{ id: string }>(db, sql`select id from feeds f where f.id = ${feedId}`);
    return feed ? { canModerate: false, reason: "not_signed_in" } : null;
  }
  const { creator, admin, approver } = moderatorConditions(user);
  const [row] = await queryRows<{ creator: boolean; admin: boolean; approver: boolean }>(
    db,
    sql`select ${creator} as creator, ${admin} as admin, ${approver} as approver from feeds f where f.id = ${feedId}`,
  );
  if (!row) return null;
  if (row.creator) return { canModerate: true, reason: "creator" };
  if (row.admin) return { canModerate: true, reason: "admin" };
  if (isSuperAdmin(env, user)) return { canModerate: true, reason: "super_admin" };
  if (row.approver) return { canModerate: true, reason: "approver" };
  return { canModerate: false, reason: "not_moderator" };
}
