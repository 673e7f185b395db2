import { ALL_FEED_ID, type Feed, type FeedSummary } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const feedKeys = {
  all: ["feeds"] as const,
  list: () => [...feedKeys.all, "list"] as const,
  detail: (feedId: string) => [...feedKeys.all, "detail", feedId] as const,
  /** The wizard's "is this hashtag taken" lookup, kept apart from the detail cache it must not pollute. */
  idCheck: (feedId: string) => [...feedKeys.all, "id-check", feedId] as const,
};

/** The catch-all feed "all" is never listed, whatever the server sends. */
export function visibleFeeds<T extends { id: string }>(feeds: readonly T[]): T[] {
  return feeds.filter((feed) => feed.id !== ALL_FEED_ID);
}

export const feedsQueryOptions = () =>
  queryOptions({
    queryKey: feedKeys.list(),
    queryFn: ({ signal }) => api<FeedSummary[]>("/feeds", { signal }),
    select: visibleFeeds,
  });

export const feedPath = (feedId: string) => `/feeds/${encodeURIComponent(feedId)}`;

export const feedQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: feedKeys.detail(feedId),
    queryFn: ({ signal }) => api<Feed>(feedPath(feedId), { signal }),
  });
