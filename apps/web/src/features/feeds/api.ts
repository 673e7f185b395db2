import { ALL_FEED_ID, type Feed, type FeedSummary, type FeedVersion, type Paged } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const feedKeys = {
  all: ["feeds"] as const,
  list: () => [...feedKeys.all, "list"] as const,
  detail: (feedId: string) => [...feedKeys.all, "detail", feedId] as const,
  /** The wizard's "is this hashtag taken" lookup, kept apart from the detail cache it must not pollute. */
  idCheck: (feedId: string) => [...feedKeys.all, "id-check", feedId] as const,
  /** Under `all`, so every save (which refreshes `all`) refreshes the history too. */
  versions: (feedId: string, page: number) => [...feedKeys.all, "versions", feedId, page] as const,
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
    // The route's loader asks first (with the usual retries): a page mounting on its answer does not ask again,
    // so a missing feed is asked for once and a failing one is retried twice in all, not twice per asker.
    retryOnMount: false,
  });

/** Versions the edit page's history shows per page. */
export const FEED_VERSIONS_PAGE_SIZE = 10;

export const feedVersionsQueryOptions = (feedId: string, page: number) =>
  queryOptions({
    queryKey: feedKeys.versions(feedId, page),
    queryFn: ({ signal }) =>
      api<Paged<FeedVersion>>(`${feedPath(feedId)}/versions`, {
        query: { page, limit: FEED_VERSIONS_PAGE_SIZE },
        signal,
      }),
  });
