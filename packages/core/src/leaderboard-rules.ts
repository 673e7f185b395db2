/** Leaderboard constants and rules, free of zod so any page can use them cheaply. */
export const TIME_RANGES = ["all", "month", "week", "today"] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

export const TOP_CURATORS_EXPLORE = 10;
export const TOP_CURATORS_FEED = 5;

/** rounded(approvals / submissions × 100), 0 when there are no submissions. */
export function approvalRate(approvals: number, submissions: number): number {
  if (submissions <= 0) return 0;
  return Math.round((approvals / submissions) * 100);
}

interface PointsSource {
  submissionCount: number;
  feedSubmissions: ReadonlyArray<{ feedId: string; count: number }>;
}

/** Curator points: the per-feed count on a feed page, else the total submission count. */
export function curatorPoints(entry: PointsSource, feedId?: string): number {
  if (!feedId) return entry.submissionCount;
  return entry.feedSubmissions.find((f) => f.feedId === feedId)?.count ?? 0;
}

export function isTimeRange(value: unknown): value is TimeRange {
  return typeof value === "string" && (TIME_RANGES as readonly string[]).includes(value);
}
