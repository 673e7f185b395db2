import { type Feed, isFeedComplete, type Paged, type Submission } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { visibleFeeds } from "#web/features/feeds/api";
import { submissionKeys } from "#web/features/submissions/api";
import { api } from "#web/lib/api";

const CONTENT_COUNT_STALE_MS = 5 * 60_000;

// Keys carry the account, so one person's lists are never shown to the next one signing in on this browser.
export const profileKeys = {
  all: ["profile"] as const,
  approverFor: (accountId: string) => [...profileKeys.all, accountId, "approver-for"] as const,
  curatorFor: (accountId: string) => [...profileKeys.all, accountId, "curator-for"] as const,
  myFeeds: (accountId: string) => [...profileKeys.all, accountId, "my-feeds"] as const,
};

export const approverForQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: profileKeys.approverFor(accountId),
    queryFn: ({ signal }) => api<Feed[]>("/activity/feeds/approved-by/me", { signal }),
    select: visibleFeeds,
  });

export const curatorForQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: profileKeys.curatorFor(accountId),
    queryFn: ({ signal }) => api<Feed[]>("/activity/feeds/curated-by/me", { signal }),
    select: visibleFeeds,
  });

export const myFeedsQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: profileKeys.myFeeds(accountId),
    queryFn: ({ signal }) => api<Feed[]>(`/users/${encodeURIComponent(accountId)}/feeds`, { signal }),
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

/** Curators of a feed: the approver handles its config names, over every platform. */
export function curatorCount(feed: Feed): number {
  const approvers = feed.config.moderation?.approvers ?? {};
  return Object.values(approvers).reduce((total, handles) => total + handles.length, 0);
}

export const MY_FEEDS_FILTERS = [
  { value: "all", label: "All" },
  { value: "completed", label: "Completed" },
  { value: "incomplete", label: "Setup incomplete" },
] as const;

export type MyFeedsFilter = (typeof MY_FEEDS_FILTERS)[number]["value"];

/** The search matches name, id and description, case-insensitively; the filter splits on setup completeness. */
export function filterMyFeeds(feeds: readonly Feed[], search: string, filter: MyFeedsFilter): Feed[] {
  const needle = search.trim().toLowerCase();
  return feeds.filter((feed) => {
    if (filter !== "all" && isFeedComplete(feed.config) !== (filter === "completed")) return false;
    if (!needle) return true;
    return [feed.name, feed.id, feed.description ?? ""].some((text) => text.toLowerCase().includes(needle));
  });
}
