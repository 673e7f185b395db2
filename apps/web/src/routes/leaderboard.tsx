import { createFileRoute } from "@tanstack/react-router";
import { feedsQueryOptions, visibleFeeds } from "#web/features/feeds/api";
import { leaderboardQueryOptions } from "#web/features/leaderboard/api";
import { LeaderboardPage } from "#web/features/leaderboard/components/LeaderboardPage";
import {
  feedIdFilter,
  leaderboardSearchSchema,
  resolveLeaderboardSearch,
} from "#web/features/leaderboard/search";

export const Route = createFileRoute("/leaderboard")({
  validateSearch: leaderboardSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient }, deps }) => {
    // The feed list decides whether `feed` names a real feed (else it falls back to all feeds); without it the
    // id is trusted rather than failing the page.
    const feeds = await queryClient.ensureQueryData(feedsQueryOptions()).then(visibleFeeds, () => undefined);
    const { feed, timeframe } = resolveLeaderboardSearch(deps, feeds);
    // Not awaited: the controls answer at once and the table shows its skeleton until the rows arrive.
    void queryClient.prefetchQuery(
      leaderboardQueryOptions({ timeRange: timeframe, feedId: feedIdFilter(feed) }),
    );
  },
  component: LeaderboardRoute,
});

function LeaderboardRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <LeaderboardPage
      search={search}
      onSearchChange={(next) => void navigate({ search: next, replace: true, resetScroll: false })}
    />
  );
}
