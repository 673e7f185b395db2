// The feed's published items, read by the API from its RSS file. They stay out of ./api: that module is in the
// first load of "/", and these are only needed on a feed's page.
import {
  type FeedRecentItem,
  type FeedRecentItems,
  RSS_READ_MESSAGES,
  RSS_READ_PROBLEMS,
  type RssReadProblem,
} from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, api } from "#web/lib/api";

export type RssItem = FeedRecentItem;

export const RSS_STALE_MS = 5 * 60_000;
export const RSS_RETRIES = 2;

/** The spec's RSS error text for a failed read: the file's problem when the server said it, else "could not fetch". */
export function rssErrorText(error: unknown): string {
  const reason =
    error instanceof ApiError
      ? (error.body as { error?: { details?: { reason?: unknown } } } | null)?.error?.details?.reason
      : undefined;
  const problem: RssReadProblem = RSS_READ_PROBLEMS.includes(reason as RssReadProblem)
    ? (reason as RssReadProblem)
    : "fetch-failed";
  return RSS_READ_MESSAGES[problem];
}

const time = (item: RssItem) => {
  const parsed = item.pubDate ? Date.parse(item.pubDate) : Number.NaN;
  return Number.isNaN(parsed) ? 0 : parsed;
};

/** The `count` newest items, newest first; undated items go last. */
export function newestItems(items: readonly RssItem[], count: number): RssItem[] {
  return [...items].sort((a, b) => time(b) - time(a)).slice(0, count);
}

export const rssKeys = {
  all: ["rss"] as const,
  feed: (feedId: string) => [...rssKeys.all, feedId] as const,
};

export const rssQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: rssKeys.feed(feedId),
    queryFn: async ({ signal }) => {
      try {
        const answer = await api<FeedRecentItems>(`/feeds/${encodeURIComponent(feedId)}/recent-items`, {
          signal,
        });
        return answer.items;
      } catch (error) {
        throw new Error(rssErrorText(error));
      }
    },
    staleTime: RSS_STALE_MS,
    retry: RSS_RETRIES,
  });
