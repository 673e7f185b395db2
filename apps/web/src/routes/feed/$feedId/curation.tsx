import { listSearchSchema } from "@curate/core";
import { createFileRoute } from "@tanstack/react-router";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { FeedCuration } from "#web/features/curation/components/FeedCuration";
import { canModerateQueryOptions } from "#web/features/moderation/api";
import {
  feedSubmissionsInfiniteQueryOptions,
  type SubmissionFilters,
  toListSearch,
  toSubmissionFilters,
} from "#web/features/submissions/api";

export const Route = createFileRoute("/feed/$feedId/curation")({
  // The loader travels with the component instead of in the app's entry: it is only needed on this tab, and
  // the entry is what every first visit to "/" pays for.
  codeSplitGroupings: [["loader", "component"]],
  validateSearch: listSearchSchema,
  loaderDeps: ({ search }) => toSubmissionFilters(search),
  loader: ({ context: { queryClient }, params: { feedId }, deps }) => {
    // The moderation check waits on the session; starting both now keeps the buttons from appearing late.
    void queryClient
      .fetchQuery(currentUserQueryOptions())
      .then((user) => {
        if (user) return queryClient.prefetchQuery(canModerateQueryOptions(feedId, user.nearAccountId));
      })
      // Only a head start: the components run the same queries and show their own errors.
      .catch(() => undefined);
    // Not awaited: the list shows "Loading submissions..." rather than holding the page.
    void queryClient.prefetchInfiniteQuery(feedSubmissionsInfiniteQueryOptions(feedId, deps));
  },
  component: CurationRoute,
});

function CurationRoute() {
  const { feedId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();

  const changeFilters = (patch: Partial<SubmissionFilters>) => {
    void navigate({
      replace: true,
      resetScroll: false,
      search: (previous) => toListSearch({ ...toSubmissionFilters(previous), ...patch }),
    });
  };

  return <FeedCuration feedId={feedId} search={search} onFiltersChange={changeFilters} />;
}
