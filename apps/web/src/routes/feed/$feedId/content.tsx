import { feedRssFileUrl } from "@curate/core";
import { createFileRoute } from "@tanstack/react-router";
import { useMemo } from "react";
import { appConfigQueryOptions } from "#web/features/config/api";
import { FeedContent } from "#web/features/content/components/FeedContent";
import {
  type ContentFilters,
  parseContentSearch,
  toContentSearch,
  withDefaults,
} from "#web/features/content/filters";
import { feedQueryOptions } from "#web/features/feeds/api";
import { rssQueryOptions } from "#web/features/feeds/rss";

export const Route = createFileRoute("/feed/$feedId/content")({
  codeSplitGroupings: [["loader", "component"]],
  validateSearch: parseContentSearch,
  loader: ({ context: { queryClient }, params: { feedId } }) => {
    // A head start on the published items; the component reads the same queries and shows their own states.
    void Promise.all([
      queryClient.ensureQueryData(feedQueryOptions(feedId)),
      queryClient.ensureQueryData(appConfigQueryOptions()),
    ])
      .then(([feed, config]) => {
        if (feedRssFileUrl(feed, config)) return queryClient.prefetchQuery(rssQueryOptions(feedId));
      })
      .catch(() => undefined);
  },
  component: ContentRoute,
});

function ContentRoute() {
  const { feedId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const filters = useMemo(() => withDefaults(search), [search]);

  const changeFilters = (next: ContentFilters) => {
    void navigate({ replace: true, resetScroll: false, search: toContentSearch(next) });
  };

  return <FeedContent feedId={feedId} filters={filters} onFiltersChange={changeFilters} />;
}
