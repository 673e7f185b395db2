/** Submission enums and the overall-status rule, free of zod so any page can use them cheaply. */
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The status filter accepts "all" as well as each status. */
export const STATUS_FILTERS = ["all", ...SUBMISSION_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_ORDERS = ["newest", "oldest"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const MAX_SEARCH_LENGTH = 200;

export const MODERATION_ACTIONS = ["approve", "reject"] as const;
export const MODERATOR_ID_TYPES = ["near", "platform_username"] as const;
export const MODERATION_SOURCES = ["ui", "platform_comment", "auto_approval", "super_admin_direct"] as const;

/**
 * A submission's overall status follows its per-feed statuses (docs/decisions/0002):
 * approved when any feed approved it, else pending while any feed has not decided, else rejected.
 */
export function overallStatus(feedStatuses: readonly SubmissionStatus[]): SubmissionStatus {
  if (feedStatuses.includes("approved")) return "approved";
  if (feedStatuses.length === 0 || feedStatuses.includes("pending")) return "pending";
  return "rejected";
}
