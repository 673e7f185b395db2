import { createFileRoute } from "@tanstack/react-router";
import { moderationLogQueryOptions } from "#web/features/moderation-log/api";
import { ModerationLog } from "#web/features/moderation-log/components/ModerationLog";
import { type LogFilters, parseLogSearch } from "#web/features/moderation-log/filters";

export const Route = createFileRoute("/feed/$feedId/log")({
  codeSplitGroupings: [["loader", "component"]],
  validateSearch: parseLogSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, params: { feedId }, deps }) => {
    // A head start only: the tab runs the same query and shows its own loading and error states.
    void queryClient.prefetchInfiniteQuery(moderationLogQueryOptions(feedId, deps)).catch(() => undefined);
  },
  component: ModerationLogRoute,
});

function ModerationLogRoute() {
  const { feedId } = Route.useParams();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  const changeFilters = (next: LogFilters) =>
    void navigate({ replace: true, resetScroll: false, search: next });
  return <ModerationLog feedId={feedId} filters={filters} onFiltersChange={changeFilters} />;
}
