import type { FeedSummary, Paged, Submission } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { feedKeys, visibleFeeds } from "#web/features/feeds/api";
import { submissionKeys } from "#web/features/submissions/api";
import { api } from "#web/lib/api";

const CONTENT_COUNT_STALE_MS = 5 * 60_000;

// Keys carry the account, so one person's lists are never shown to the next one signing in on this browser.
// They sit under feedKeys.all because they are lists of feeds: every feed write refreshes them with the rest.
export const profileKeys = {
  all: [...feedKeys.all, "profile"] as const,
  approverFor: (accountId: string) => [...profileKeys.all, accountId, "approver-for"] as const,
  curatorFor: (accountId: string) => [...profileKeys.all, accountId, "curator-for"] as const,
  myFeeds: (accountId: string) => [...profileKeys.all, accountId, "my-feeds"] as const,
};

export const approverForQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: profileKeys.approverFor(accountId),
    queryFn: ({ signal }) => api<FeedSummary[]>("/activity/feeds/approved-by/me", { signal }),
    select: visibleFeeds,
  });

export const curatorForQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: profileKeys.curatorFor(accountId),
    queryFn: ({ signal }) => api<FeedSummary[]>("/activity/feeds/curated-by/me", { signal }),
    select: visibleFeeds,
  });

export const myFeedsQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: profileKeys.myFeeds(accountId),
    queryFn: ({ signal }) => api<FeedSummary[]>(`/users/${encodeURIComponent(accountId)}/feeds`, { signal }),
    select: visibleFeeds,
  });

/** A feed's content count: its approved submissions, read from the total of a one-item page. */
export const contentCountQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: [...submissionKeys.all, "approved-count", feedId] as const,
    queryFn: async ({ signal }) => {
      const page = await api<Paged<Submission>>(`/submissions/feed/${encodeURIComponent(feedId)}`, {
        signal,
        query: { page: 0, limit: 1, status: "approved" },
      });
      return page.pagination.totalCount;
    },
    staleTime: CONTENT_COUNT_STALE_MS,
  });
