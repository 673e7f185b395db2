import { z } from "zod";

export const TIME_RANGES = ["all", "month", "week", "today"] as const;
export const timeRangeSchema = z.enum(TIME_RANGES);
export type TimeRange = z.infer<typeof timeRangeSchema>;

export const TOP_CURATORS_EXPLORE = 10;
export const TOP_CURATORS_FEED = 5;

export const leaderboardEntrySchema = z.object({
  curatorId: z.string(),
  curatorUsername: z.string(),
  submissionCount: z.number().int(),
  approvalCount: z.number().int(),
  rejectionCount: z.number().int(),
  feedSubmissions: z.array(
    z.object({ feedId: z.string(), count: z.number().int(), totalInFeed: z.number().int() }),
  ),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** rounded(approvals / submissions × 100), 0 when there are no submissions. */
export function approvalRate(approvals: number, submissions: number): number {
  if (submissions <= 0) return 0;
  return Math.round((approvals / submissions) * 100);
}

/** Curator points: the per-feed count on a feed page, else the total submission count. */
export function curatorPoints(entry: LeaderboardEntry, feedId?: string): number {
  if (!feedId) return entry.submissionCount;
  return entry.feedSubmissions.find((f) => f.feedId === feedId)?.count ?? 0;
}
