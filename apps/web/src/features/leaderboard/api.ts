import {
  curatorPoints,
  type LeaderboardEntry,
  type LeaderboardSort,
  scorePercent,
  type TimeRange,
  TOP_CURATORS_EXPLORE,
  TOP_CURATORS_FEED,
} from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export interface LeaderboardQuery {
  timeRange: TimeRange;
  feedId?: string;
  limit?: number;
  /** Counts by default; "score" ranks by reputation (all-time only). */
  sort?: LeaderboardSort;
}

export const leaderboardKeys = {
  all: ["leaderboard"] as const,
  list: (query: LeaderboardQuery) => [...leaderboardKeys.all, query] as const,
};

export const leaderboardQueryOptions = (query: LeaderboardQuery) =>
  queryOptions({
    queryKey: leaderboardKeys.list(query),
    queryFn: ({ signal }) => api<LeaderboardEntry[]>("/leaderboard", { signal, query: { ...query } }),
  });

export interface RankedCurator {
  entry: LeaderboardEntry;
  points: number;
}

/**
 * The curators with the most points (per-feed count on a feed page), highest first, cut to `limit`; by score, the
 * server's order, each with their score out of 100.
 */
export function topCurators(
  entries: readonly LeaderboardEntry[],
  limit: number,
  feedId?: string,
  sort: LeaderboardSort = "submissions",
): RankedCurator[] {
  if (sort === "score") {
    return entries
      .slice(0, limit)
      .map((entry) => ({ entry, points: scorePercent(entry.reputation?.score ?? 0) }));
  }
  return entries
    .map((entry) => ({ entry, points: curatorPoints(entry, feedId) }))
    .sort((a, b) => b.points - a.points)
    .slice(0, limit);
}

export interface TopCuratorsOptions {
  /** On a feed page: rank by that feed's own count. */
  feedId?: string;
  limit?: number;
  sort?: LeaderboardSort;
}

/** The panel's size: 10 on Explore, 5 on a feed page, unless the caller says otherwise. */
export function topCuratorsLimit({ feedId, limit }: TopCuratorsOptions): number {
  return limit ?? (feedId ? TOP_CURATORS_FEED : TOP_CURATORS_EXPLORE);
}

/**
 * The all-time Top Curator panel (Explore, or one feed's page). Asking the server for only `limit` rows is
 * sound: it ranks by submissions within the requested scope, which is exactly the points measure of that scope
 * (the total, or the feed's own count), so its cut keeps the same curators that sorting by points would.
 */
export const topCuratorsQueryOptions = (options: TopCuratorsOptions = {}) =>
  leaderboardQueryOptions({
    timeRange: "all",
    feedId: options.feedId,
    limit: topCuratorsLimit(options),
    // The default stays out of the key and the address, so the prefetched counts ranking is the one reused.
    ...(options.sort === "score" ? { sort: "score" as const } : {}),
  });
