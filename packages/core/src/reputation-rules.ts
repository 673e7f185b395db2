/** Reputation and queue service-level rules and constants, free of zod so any page can use them cheaply. */

/** How the leaderboard and Top Curators rank: by counts (submissions, then approvals) or by the reputation score. */
export const LEADERBOARD_SORTS = ["submissions", "score"] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];

export function isLeaderboardSort(value: unknown): value is LeaderboardSort {
  return typeof value === "string" && (LEADERBOARD_SORTS as readonly string[]).includes(value);
}

/** z for a two-sided 95 % interval. */
const Z = 1.959963984540054;

/**
 * The Wilson score interval's lower bound (95 %) of `approved` out of `total` decisions: the approval rate we can be
 * confident of. It grows with evidence, so 3 of 3 (0.44) ranks below 95 of 100 (0.89); 0 without decisions. The
 * database keeps the same formula (`curate_wilson_lower_bound`) beside the counts.
 */
export function wilsonLowerBound(approved: number, total: number): number {
  if (total <= 0) return 0;
  const p = approved / total;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * total);
  const spread = Z * Math.sqrt(Math.max(0, (p * (1 - p)) / total + z2 / (4 * total * total)));
  return Math.max(0, (centre - spread) / (1 + z2 / total));
}

/** The score as the app shows it: 0–100, whole. */
export function scorePercent(score: number): number {
  return Math.round(score * 100);
}

/** A feed's service level: decide within this many hours. */
export const MIN_DECIDE_WITHIN_HOURS = 1;
export const MAX_DECIDE_WITHIN_HOURS = 720;

/** An approver is reminded about one feed at most once in this many hours, however long its queue waits. */
export const QUEUE_REMINDER_PERIOD_HOURS = 6;
/** …and gets at most this many reminders over all feeds in any 24 hours. */
export const QUEUE_REMINDER_DAILY_CAP = 4;
/** A feed's median time to decision is taken over the decisions of this many past days. */
export const QUEUE_MEDIAN_WINDOW_DAYS = 30;
/** Overdue posts are counted up to this many (a queue that long needs no exact figure). */
export const OVERDUE_COUNT_CAP = 1000;

/** A duration in seconds as "45 s", "12 min", "5 h 20 min", "3 d 4 h". */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
