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

export interface ResolvedLeaderboardSearch {
  feed: string;
  timeframe: TimeRange;
}

/**
 * The filters to show and fetch. A feed id that is well-formed but names no feed is as unusable as a malformed
 * one, so it falls back to all feeds once the feed list is known; without the list the id is trusted.
 */
export function resolveLeaderboardSearch(
  search: LeaderboardSearch,
  feeds?: ReadonlyArray<{ id: string }>,
): ResolvedLeaderboardSearch {
  const known = !search.feed || !feeds || feeds.some((feed) => feed.id === search.feed);
  return { feed: (known && search.feed) || ALL_FEEDS, timeframe: search.timeframe ?? "all" };
}

/** The `feedId` to ask the server for: none when every feed counts. */
export function feedIdFilter(feed: string): string | undefined {
  return feed === ALL_FEEDS ? undefined : feed;
}

/** The address for chosen filters; defaults stay out of it so shared links stay short. */
export function toLeaderboardSearch({ feed, timeframe }: ResolvedLeaderboardSearch): LeaderboardSearch {
  return { feed: feedIdFilter(feed), timeframe: timeframe === "all" ? undefined : timeframe };
}
