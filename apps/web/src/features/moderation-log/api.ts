import { LOG_PAGE_SIZE, type LogPage } from "@curate/core";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, apiUrl } from "#web/lib/api";
import type { LogFilters } from "./filters";

export const moderationLogKeys = {
  all: ["moderation-log"] as const,
  feed: (feedId: string) => [...moderationLogKeys.all, feedId] as const,
  entries: (feedId: string, filters: LogFilters) =>
    [...moderationLogKeys.feed(feedId), "entries", filters] as const,
  status: (feedId: string) => [...moderationLogKeys.feed(feedId), "status"] as const,
};

const logPath = (feedId: string) => `/feeds/${encodeURIComponent(feedId)}/log`;

/** The log tab's entries, newest first, a page at a time (Load more follows the cursor). */
export const moderationLogQueryOptions = (feedId: string, filters: LogFilters) =>
  infiniteQueryOptions({
    queryKey: moderationLogKeys.entries(feedId, filters),
    queryFn: ({ pageParam, signal }) =>
      api<LogPage>(logPath(feedId), {
        signal,
        query: { ...filters, limit: LOG_PAGE_SIZE, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.nextCursor ?? undefined,
  });

/** What the server's own check last found in the feed's log (the feed page warns when it is broken). */
export const logIntegrityQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: moderationLogKeys.status(feedId),
    queryFn: async ({ signal }) =>
      (await api<LogPage>(logPath(feedId), { signal, query: { limit: 1 } })).integrity,
  });

/** The whole log as JSON Lines, for `npm run verify-log` or any other checker. */
export const logDownloadUrl = (feedId: string) => apiUrl(`${logPath(feedId)}/download`);
