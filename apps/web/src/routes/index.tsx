import { listSearchSchema } from "@curate/core";
import { createFileRoute } from "@tanstack/react-router";
import { appConfigQueryOptions } from "#web/features/config/api";
import { ExplorePage } from "#web/features/explore/components/ExplorePage";
import { feedsQueryOptions } from "#web/features/feeds/api";
import { topCuratorsQueryOptions } from "#web/features/leaderboard/api";
import {
  type SubmissionFilters,
  submissionsInfiniteQueryOptions,
  toListSearch,
  toSubmissionFilters,
} from "#web/features/submissions/api";

export const Route = createFileRoute("/")({
  validateSearch: listSearchSchema,
  loaderDeps: ({ search }) => toSubmissionFilters(search),
  loader: ({ context: { queryClient }, deps }) => {
    // A head start only, never awaited: the page renders at once and each list shows its own loading state, so
    // a slow answer never blanks the page or freezes a navigation.
    void queryClient.prefetchQuery(appConfigQueryOptions());
    void queryClient.prefetchQuery(feedsQueryOptions());
    void queryClient.prefetchQuery(topCuratorsQueryOptions());
    void queryClient.prefetchInfiniteQuery(submissionsInfiniteQueryOptions(deps));
  },
  component: ExploreRoute,
});

function ExploreRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();

  const changeFilters = (patch: Partial<SubmissionFilters>) => {
    void navigate({
      replace: true,
      resetScroll: false,
      search: (previous) => toListSearch({ ...toSubmissionFilters(previous), ...patch }),
    });
  };

  return <ExplorePage search={search} onFiltersChange={changeFilters} />;
}
