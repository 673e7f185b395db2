import type { Feed } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Alert } from "#web/components/ui/alert";
import { Card } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { type ContentFilters, categoriesOf, filterContent } from "#web/features/content/filters";
import { feedQueryOptions } from "#web/features/feeds/api";
import { rssQueryOptions } from "#web/features/feeds/rss";
import { useFeedRssUrl } from "#web/features/feeds/use-feed-rss-url";
import { ActiveFilterChips, ContentFilterPanel } from "./ContentFilterPanel";
import { ContentList } from "./ContentList";

interface FeedContentProps {
  feedId: string;
  filters: ContentFilters;
  onFiltersChange: (filters: ContentFilters) => void;
}

/** The content tab: what the feed has published, read from its own RSS file. */
export function FeedContent({ feedId, filters, onFiltersChange }: FeedContentProps) {
  const { data: feed } = useQuery(feedQueryOptions(feedId));
  return (
    <section aria-labelledby="recent-content-heading" className="flex flex-col gap-5">
      <SectionHeader id="recent-content-heading" title="Recent Content" />
      {/* The header above says when the feed itself is loading or failed. */}
      {feed ? <FeedRss feed={feed} filters={filters} onFiltersChange={onFiltersChange} /> : <ListSkeleton />}
    </section>
  );
}

function FeedRss({ feed, filters, onFiltersChange }: { feed: Feed } & Omit<FeedContentProps, "feedId">) {
  const url = useFeedRssUrl(feed);
  if (!url) {
    return (
      <Card className="px-6 py-10 text-center text-sm text-muted">
        This feed doesn't have an RSS feed configured.
      </Card>
    );
  }
  return <RssItems feedId={feed.id} filters={filters} onFiltersChange={onFiltersChange} />;
}

function RssItems({ feedId, filters, onFiltersChange }: FeedContentProps) {
  const { data, error, status } = useQuery(rssQueryOptions(feedId));
  const categories = useMemo(() => categoriesOf(data ?? []), [data]);
  const shown = useMemo(() => filterContent(data ?? [], filters), [data, filters]);

  if (status === "pending") {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <p className="text-sm text-muted">Loading RSS feed...</p>
        <ListSkeleton />
      </div>
    );
  }
  if (status === "error") {
    return <Alert>{`Error loading RSS feed: ${error.message}`}</Alert>;
  }
  return (
    <div className="flex flex-col gap-4">
      <ContentFilterPanel filters={filters} categories={categories} onApply={onFiltersChange} />
      <ActiveFilterChips filters={filters} onChange={onFiltersChange} />
      {shown.length === 0 ? (
        <Card className="px-6 py-10 text-center text-sm text-muted">No RSS feed items found.</Card>
      ) : (
        <ContentList items={shown} onCategory={(category) => onFiltersChange({ ...filters, category })} />
      )}
    </div>
  );
}

function ListSkeleton() {
  return (
    <div className="flex flex-col gap-3">
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} className="h-32 w-full" />
      ))}
    </div>
  );
}
