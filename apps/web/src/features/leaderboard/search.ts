import {
  FEED_ID_PATTERN,
  isLeaderboardSort,
  isTimeRange,
  type LeaderboardSort,
  type TimeRange,
} from "@curate/core";

/**
 * The address to put in place of the one given, when it holds a value the page does not use (a feed that does
 * not exist, a malformed value); undefined when the address is already what the page shows.
 */
export function correctedLeaderboardSearch(
  raw: Record<string, unknown>,
  feeds: ReadonlyArray<{ id: string }> | undefined,
): LeaderboardSearch | undefined {
  if (!feeds) return undefined;
  const wanted = toLeaderboardSearch(resolveLeaderboardSearch(leaderboardSearchSchema.parse(raw), feeds));
  const same =
    (raw.feed ?? undefined) === wanted.feed &&
    (raw.timeframe ?? undefined) === wanted.timeframe &&
    (raw.sort ?? undefined) === wanted.sort;
  return same ? undefined : wanted;
}

/** The feed filter's default: no single feed, every feed counts. */
export const ALL_FEEDS = "all feeds";

export interface LeaderboardSearch {
  feed?: string;
  timeframe?: TimeRange;
  /** Rank by counts (the default) or by reputation score. */
  sort?: LeaderboardSort;
}

/**
 * /leaderboard search parameters; an unusable value falls back to its default instead of failing the page.
 * Plain code rather than a schema library: route validators load on every page.
 */
export const leaderboardSearchSchema = {
  parse: (input: Record<string, unknown>): LeaderboardSearch => ({
    // Feed ids are lower-case everywhere; "NEAR" in an address means #near.
    feed:
      typeof input.feed === "string" && FEED_ID_PATTERN.test(input.feed.toLowerCase())
        ? input.feed.toLowerCase()
        : undefined,
    timeframe: isTimeRange(input.timeframe) ? input.timeframe : undefined,
    sort: isLeaderboardSort(input.sort) ? input.sort : undefined,
  }),
};

export interface ResolvedLeaderboardSearch {
  feed: string;
  timeframe: TimeRange;
  sort: LeaderboardSort;
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
  const sort = search.sort ?? "submissions";
  // The score is all-time: a week's score would rest on a handful of decisions.
  const timeframe = sort === "score" ? "all" : (search.timeframe ?? "all");
  return { feed: (known && search.feed) || ALL_FEEDS, timeframe, sort };
}

/** The `feedId` to ask the server for: none when every feed counts. */
export function feedIdFilter(feed: string): string | undefined {
  return feed === ALL_FEEDS ? undefined : feed;
}

/** The address for chosen filters; defaults stay out of it so shared links stay short. */
export function toLeaderboardSearch({ feed, timeframe, sort }: ResolvedLeaderboardSearch): LeaderboardSearch {
  return {
    feed: feedIdFilter(feed),
    timeframe: timeframe === "all" || sort === "score" ? undefined : timeframe,
    sort: sort === "submissions" ? undefined : sort,
  };
}

/** What to ask the server for the chosen filters. */
export function leaderboardQueryOf(filters: ResolvedLeaderboardSearch): {
  timeRange: TimeRange;
  feedId?: string;
  sort?: LeaderboardSort;
} {
  return {
    timeRange: filters.timeframe,
    feedId: feedIdFilter(filters.feed),
    ...(filters.sort === "score" ? { sort: "score" as const } : {}),
  };
}
