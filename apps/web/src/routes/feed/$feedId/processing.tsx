import { createFileRoute } from "@tanstack/react-router";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { canModerateQueryOptions } from "#web/features/moderation/api";
import { processedSubmissionsQueryOptions } from "#web/features/processing/api";
import { validateProcessingSearch } from "#web/features/processing/search";
import { ProcessingHistory } from "#web/features/processing-history/components/ProcessingHistory";

export const Route = createFileRoute("/feed/$feedId/processing")({
  // The loader travels with the component: both are for this tab only, and the app's entry is what every first
  // visit to "/" pays for.
  codeSplitGroupings: [["loader", "component"]],
  validateSearch: validateProcessingSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, params: { feedId }, deps }) => {
    // The rows answer 401/403 to anyone but a moderator, so they are asked for only once the check passed. Not
    // awaited: the tab shows its skeleton meanwhile, and three round trips must not hold up the navigation.
    void queryClient
      .fetchQuery(currentUserQueryOptions())
      .then(async (user) => {
        if (!user) return;
        const access = await queryClient.fetchQuery(canModerateQueryOptions(feedId, user.nearAccountId));
        if (access.canModerate) {
          await queryClient.prefetchInfiniteQuery(processedSubmissionsQueryOptions(feedId, deps));
        }
      })
      // Only a head start: the components run the same queries and show their own errors.
      .catch(() => undefined);
  },
  component: ProcessingRoute,
});

function ProcessingRoute() {
  const { feedId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const clearFailures = () => void navigate({ replace: true, resetScroll: false, search: {} });
  return <ProcessingHistory feedId={feedId} search={search} onClearFailures={clearFailures} />;
}
