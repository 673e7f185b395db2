/** Submission enums and the overall-status rule, free of zod so any page can use them cheaply. */
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** The status filter accepts "all" as well as each status. */
export const STATUS_FILTERS = ["all", ...SUBMISSION_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_ORDERS = ["newest", "oldest"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const MAX_SEARCH_LENGTH = 200;

/**
 * Searches of fewer characters (after a leading "@") match handles that start with them, not text anywhere: a
 * trigram index cannot answer them, and "ai" inside a million posts is not a useful result (docs/decisions/0014).
 */
export const MIN_TEXT_SEARCH_LENGTH = 3;

/** A searched list counts its matches up to this; beyond it the total reads "1,000+" (docs/decisions/0014). */
export const SEARCH_TOTAL_CAP = 1000;

/** Whether `q` is searched as text anywhere (true) or as the start of a handle (false). */
export function isTextSearch(q: string): boolean {
  return q.replace(/^@+/, "").length >= MIN_TEXT_SEARCH_LENGTH;
}

export const MODERATION_ACTIONS = ["approve", "reject"] as const;
/** What a moderation history entry records: a decision, or the undo that took an approval back. */
export const MODERATION_HISTORY_ACTIONS = [...MODERATION_ACTIONS, "undo"] as const;
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
