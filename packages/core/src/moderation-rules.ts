/** Who may moderate a feed, as the can-moderate answer states it; free of zod so any page can use it cheaply. */

/** Why the user may (creator, admin, super_admin, approver) or may not moderate a feed. */
export const MODERATOR_REASONS = [
  "creator",
  "admin",
  "super_admin",
  "approver",
  "not_moderator",
  "not_signed_in",
] as const;
export type ModeratorReason = (typeof MODERATOR_REASONS)[number];

/** GET /api/feeds/{id}/can-moderate. */
export interface CanModerate {
  canModerate: boolean;
  reason: ModeratorReason;
}

/** Reasons that also allow editing and deleting the feed. */
export const FEED_MANAGER_REASONS: readonly ModeratorReason[] = ["creator", "admin", "super_admin"];

/** A platform as approver lists key it: X is one platform under its old and new names. */
export function platformKey(platform: string): string {
  const key = platform.trim().toLowerCase();
  return key === "x" ? "twitter" : key;
}

/** A handle as lists compare it: without leading "@", case-insensitively. */
export function handleKey(handle: string): string {
  return handle.trim().replace(/^@+/, "").toLowerCase();
}

/** A handle on a social network. */
export interface SocialIdentity {
  platform: string;
  handle: string;
}

/** The handles a feed's config lists for one platform under `moderation.approvers` or `moderation.blacklist`. */
export function listedHandles(
  config: unknown,
  section: "approvers" | "blacklist",
  platform: string,
): Set<string> {
  const lists = (config as { moderation?: Record<string, unknown> } | null)?.moderation?.[section];
  const handles = new Set<string>();
  if (!lists || typeof lists !== "object") return handles;
  const wanted = platformKey(platform);
  for (const [listPlatform, list] of Object.entries(lists as Record<string, unknown>)) {
    if (platformKey(listPlatform) !== wanted || !Array.isArray(list)) continue;
    for (const handle of list) if (typeof handle === "string") handles.add(handleKey(handle));
  }
  return handles;
}

/** Every handle a config lists as an approver, on any platform. */
function allApproverHandles(config: unknown): Set<string> {
  const lists = (config as { moderation?: { approvers?: unknown } } | null)?.moderation?.approvers;
  const handles = new Set<string>();
  if (!lists || typeof lists !== "object") return handles;
  for (const list of Object.values(lists as Record<string, unknown>)) {
    if (Array.isArray(list)) for (const h of list) if (typeof h === "string") handles.add(handleKey(h));
  }
  return handles;
}

/** The parts of a feed that say who runs it. */
export interface FeedModerators {
  createdBy?: string | null;
  admins?: readonly unknown[] | null;
  config: unknown;
}

/** Whoever acts: a Curate account and/or handles proven to be theirs (linked accounts, the author of a reply). */
export interface ModerationActor {
  nearAccountId?: string | null;
  handles?: readonly SocialIdentity[];
  superAdmin?: boolean;
}

/**
 * The one rule of who may moderate a feed (DESIGN §4): its creator, its admins, super admins, and approvers — a
 * NEAR account listed under any platform, or a handle listed under that handle's own platform. Accounts and
 * handles compare case-insensitively, without "@". The web's decisions, replies on social networks and the
 * can-moderate answer all ask this function.
 */
export function moderatorReason(feed: FeedModerators, actor: ModerationActor): ModeratorReason {
  const account = actor.nearAccountId?.toLowerCase() ?? null;
  if (account && feed.createdBy?.toLowerCase() === account) return "creator";
  const admins = Array.isArray(feed.admins) ? feed.admins : [];
  if (account && admins.some((a) => typeof a === "string" && a.toLowerCase() === account)) return "admin";
  if (actor.superAdmin) return "super_admin";
  if (account && allApproverHandles(feed.config).has(handleKey(account))) return "approver";
  for (const identity of actor.handles ?? []) {
    if (listedHandles(feed.config, "approvers", identity.platform).has(handleKey(identity.handle))) {
      return "approver";
    }
  }
  return "not_moderator";
}

export function canModerateFor(reason: ModeratorReason): boolean {
  return reason === "creator" || reason === "admin" || reason === "super_admin" || reason === "approver";
}

/** The feed-editing rule, server and web alike: its creator, its admins and super admins; approvers only moderate. */
export function canManageFor(reason: ModeratorReason): boolean {
  return FEED_MANAGER_REASONS.includes(reason);
}
