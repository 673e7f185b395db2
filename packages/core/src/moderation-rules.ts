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
