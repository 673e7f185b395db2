import {
  DEFAULT_PAGE_SIZE,
  type ListSearch,
  type Paged,
  type SortOrder,
  type StatusFilter,
  type Submission,
} from "@curate/core";
import { infiniteQueryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const SUBMISSIONS_REFRESH_MS = 10_000;

export interface SubmissionFilters {
  status: StatusFilter;
  sortOrder: SortOrder;
  q?: string;
}

/** Fills in the defaults of a validated list search (all statuses, newest first). */
export function toSubmissionFilters(search: ListSearch): SubmissionFilters {
  return { status: search.status ?? "all", sortOrder: search.sortOrder ?? "newest", q: search.q };
}

/** The search parameters for these filters; defaults stay out of the address so shared links stay short. */
export function toListSearch(filters: SubmissionFilters): ListSearch {
  return {
    status: filters.status === "all" ? undefined : filters.status,
    sortOrder: filters.sortOrder === "newest" ? undefined : filters.sortOrder,
    q: filters.q || undefined,
  };
}

export const submissionKeys = {
  all: ["submissions"] as const,
  lists: () => [...submissionKeys.all, "list"] as const,
  list: (filters: SubmissionFilters) => [...submissionKeys.lists(), filters] as const,
  feedList: (feedId: string, filters: SubmissionFilters) =>
    [...submissionKeys.lists(), { feedId, ...filters }] as const,
  detail: (tweetId: string) => [...submissionKeys.all, "detail", tweetId] as const,
};

function fetchSubmissionPage(path: string, filters: SubmissionFilters, page: number, signal: AbortSignal) {
  return api<Paged<Submission>>(path, {
    signal,
    query: {
      page,
      limit: DEFAULT_PAGE_SIZE,
      status: filters.status,
      sortOrder: filters.sortOrder,
      q: filters.q,
    },
  });
}

// Explore and the feed curation tab page the same way (GET /submissions and GET /submissions/feed/{feedId}).
const pagedListDefaults = {
  initialPageParam: 0 as number,
  getNextPageParam: (last: Paged<Submission>) =>
    last.pagination.hasNextPage ? last.pagination.page + 1 : undefined,
  refetchInterval: SUBMISSIONS_REFRESH_MS,
  refetchOnWindowFocus: true,
  refetchOnReconnect: true,
};

export const submissionsInfiniteQueryOptions = (filters: SubmissionFilters) =>
  infiniteQueryOptions({
    queryKey: submissionKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchSubmissionPage("/submissions", filters, pageParam, signal),
    ...pagedListDefaults,
  });

/** One feed's submissions; each item's status, curator and notes are those of its link to this feed. */
export const feedSubmissionsInfiniteQueryOptions = (feedId: string, filters: SubmissionFilters) =>
  infiniteQueryOptions({
    queryKey: submissionKeys.feedList(feedId, filters),
    queryFn: ({ pageParam, signal }) =>
      fetchSubmissionPage(`/submissions/feed/${encodeURIComponent(feedId)}`, filters, pageParam, signal),
    ...pagedListDefaults,
  });
