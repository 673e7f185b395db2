import { useQuery } from "@tanstack/react-query";
import { createFileRoute, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";
import { feedsQueryOptions, visibleFeeds } from "#web/features/feeds/api";
import { leaderboardQueryOptions } from "#web/features/leaderboard/api";
import { LeaderboardPage } from "#web/features/leaderboard/components/LeaderboardPage";
import {
  correctedLeaderboardSearch,
  leaderboardQueryOf,
  leaderboardSearchSchema,
  resolveLeaderboardSearch,
} from "#web/features/leaderboard/search";

export const Route = createFileRoute("/leaderboard")({
  validateSearch: leaderboardSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    // Nothing here is awaited: the controls answer at once and the table shows its skeleton until the rows
    // arrive. The feed list decides whether `feed` names a real feed, so the rows are asked for after it.
    void queryClient
      .ensureQueryData(feedsQueryOptions())
      .then(visibleFeeds, () => undefined)
      .then((feeds) => {
        return queryClient.prefetchQuery(
          leaderboardQueryOptions(leaderboardQueryOf(resolveLeaderboardSearch(deps, feeds))),
        );
      });
  },
  component: LeaderboardRoute,
});

function LeaderboardRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const rawSearch = useRouterState({ select: (state) => state.location.search });
  const { data: feeds } = useQuery(feedsQueryOptions());

  // The address never keeps a value the page does not use (?feed=bogus, ?timeframe=year): once the feeds are
  // known it is replaced by what the page shows.
  useEffect(() => {
    const corrected = correctedLeaderboardSearch(rawSearch as Record<string, unknown>, feeds);
    if (corrected) void navigate({ search: corrected, replace: true, resetScroll: false });
  }, [rawSearch, feeds, navigate]);

  return (
    <LeaderboardPage
      search={search}
      onSearchChange={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
    />
  );
}
