import { useQuery } from "@tanstack/react-query";
import { Alert } from "#web/components/ui/alert";
import { Skeleton } from "#web/components/ui/skeleton";
import { feedsQueryOptions } from "#web/features/feeds/api";
import { FeedLink } from "./FeedLink";

/** Every public feed, each linking to its page. */
export function FeedList() {
  const { data: feeds, status } = useQuery(feedsQueryOptions());

  if (status === "pending") {
    return (
      <ul className="flex flex-col gap-1" aria-busy="true" aria-label="Loading feeds">
        {Array.from({ length: 6 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <li key={index} className="flex items-center gap-3 px-2 py-2">
            <Skeleton className="size-8" />
            <Skeleton className="h-4 flex-1" />
          </li>
        ))}
      </ul>
    );
  }
  if (status === "error") {
    return <Alert>Error fetching feeds</Alert>;
  }
  if (feeds.length === 0) {
    return <p className="px-2 py-4 text-sm text-muted">No feeds found</p>;
  }

  return (
    <ul className="flex flex-col gap-0.5" data-testid="feed-list">
      {feeds.map((feed) => (
        <li key={feed.id}>
          <FeedLink feed={feed} />
        </li>
      ))}
    </ul>
  );
}
