import { FEED_ID_PATTERN, type TimeRange, timeRangeSchema } from "@curate/core";
import { z } from "zod";

/** The feed filter's default: no single feed, every feed counts. */
export const ALL_FEEDS = "all feeds";

/** /leaderboard search parameters; an unusable value falls back to its default instead of failing the page. */
export const leaderboardSearchSchema = z.object({
  feed: z.string().regex(FEED_ID_PATTERN).optional().catch(undefined),
  timeframe: timeRangeSchema.optional().catch(undefined),
});
export type LeaderboardSearch = z.infer<typeof leaderboardSearchSchema>;

export function resolveLeaderboardSearch(search: LeaderboardSearch): { feed: string; timeframe: TimeRange } {
  return { feed: search.feed ?? ALL_FEEDS, timeframe: search.timeframe ?? "all" };
}
