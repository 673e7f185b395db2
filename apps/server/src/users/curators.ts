import { sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

/**
 * The one notion of "a curator" (decision 0019): a stored curator key (`handleOnPlatform`: X's bare handle,
 * `<platform>:<handle>` elsewhere), and all the keys of the handles one Curate account linked are one curator. This
 * relation gives each linked handle's key, the entry it merges into (`account:<user id>`) and the account. A handle is
 * one account's at a time; should two rows name it (a handle renamed and taken by someone else), the latest proof
 * wins, as it does for moderation. The leaderboard, Top Curators and "Curator For" all read it.
 */
export const LINKED_CURATOR_KEYS = sql`select distinct on (handle) handle, 'account:' || user_id as entry, user_id from (
    select case lower(platform_name) when 'twitter' then username when 'x' then username
        else lower(platform_name) || ':' || username end as handle, user_id, updated_at
    from linked_accounts) keyed
  order by handle, updated_at desc`;

/**
 * Every curator key that is this user: each handle they linked, on any network, and their NEAR account (what a post
 * submitted from the app names as its curator).
 */
export async function curatorKeysOf(
  db: Database,
  user: Pick<User, "id" | "nearAccountId">,
): Promise<string[]> {
  const rows = await queryRows<{ handle: string }>(
    db,
    sql`select handle from (${LINKED_CURATOR_KEYS}) linked where user_id = ${user.id}`,
  );
  return [user.nearAccountId, ...rows.map((row) => row.handle)];
}
