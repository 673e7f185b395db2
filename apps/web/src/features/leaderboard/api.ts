import { curatorPoints, type LeaderboardEntry, type TimeRange, TOP_CURATORS_EXPLORE } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api";

export interface LeaderboardQuery {
  timeRange: TimeRange;
  feedId?: string;
  limit?: number;
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

/** The curators with the most points (per-feed count on a feed page), highest first, cut to `limit`. */
export function topCurators(
  entries: readonly LeaderboardEntry[],
  limit: number,
  feedId?: string,
): RankedCurator[] {
  return entries
    .map((entry) => ({ entry, points: curatorPoints(entry, feedId) }))
    .sort((a, b) => b.points - a.points)
    .slice(0, limit);
}

/** The all-time Top Curator panel of Explore. */
export const topCuratorsQueryOptions = () =>
  leaderboardQueryOptions({ timeRange: "all", limit: TOP_CURATORS_EXPLORE });
