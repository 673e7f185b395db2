import {
  DEFAULT_PAGE_SIZE,
  type ListSearch,
  type Paged,
  type Platform,
  type SortOrder,
  type StatusFilter,
  type Submission,
} from "@curate/core";
import { type InfiniteData, infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const SUBMISSIONS_REFRESH_MS = 10_000;

export interface SubmissionFilters {
  status: StatusFilter;
  sortOrder: SortOrder;
  q?: string;
  platform: "all" | Platform;
}

/** Fills in the defaults of a validated list search (all statuses and networks, newest first). */
export function toSubmissionFilters(search: ListSearch): SubmissionFilters {
  return {
    status: search.status ?? "all",
    sortOrder: search.sortOrder ?? "newest",
    q: search.q,
    platform: search.platform ?? "all",
  };
}

/** The search parameters for these filters; defaults stay out of the address so shared links stay short. */
export function toListSearch(filters: SubmissionFilters): ListSearch {
  return {
    status: filters.status === "all" ? undefined : filters.status,
    sortOrder: filters.sortOrder === "newest" ? undefined : filters.sortOrder,
    q: filters.q || undefined,
    platform: filters.platform === "all" ? undefined : filters.platform,
  };
}

export const submissionKeys = {
  all: ["submissions"] as const,
  lists: () => [...submissionKeys.all, "list"] as const,
  list: (filters: SubmissionFilters) => [...submissionKeys.lists(), filters] as const,
  feedList: (feedId: string, filters: SubmissionFilters) =>
    [...submissionKeys.lists(), { feedId, ...filters }] as const,
  /**
   * The first page alone, polled for what changed on top of a list. Kept out of `lists()`: those hold paged
   * (infinite) data that the moderation cache rewrites, a head holds one page.
   */
  heads: () => [...submissionKeys.all, "head"] as const,
  head: (listKey: readonly unknown[]) => [...submissionKeys.heads(), ...listKey.slice(2)] as const,
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
      platform: filters.platform === "all" ? undefined : filters.platform,
    },
  });
}

// Explore and the feed curation tab page the same way (GET /submissions and GET /submissions/feed/{feedId}).
// The loaded pages are never refetched as a whole: after scrolling 16 pages that would be 16 requests a tick.
// Freshness comes from polling the first page alone (the head, below), merged into what is loaded.
const pagedListDefaults = {
  initialPageParam: 0 as number,
  getNextPageParam: (last: Paged<Submission>) =>
    last.pagination.hasNextPage ? last.pagination.page + 1 : undefined,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
};

/**
 * The first page of a list, asked for every 10 s and on focus or reconnect, however fresh: what it holds that
 * the loaded pages do not is new on top; what it holds that they do is a newer copy of a loaded item.
 */
const headDefaults = {
  staleTime: SUBMISSIONS_REFRESH_MS,
  refetchInterval: SUBMISSIONS_REFRESH_MS,
  refetchOnWindowFocus: "always",
  refetchOnReconnect: "always",
} as const;

export const submissionsInfiniteQueryOptions = (filters: SubmissionFilters) =>
  infiniteQueryOptions({
    queryKey: submissionKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchSubmissionPage("/submissions", filters, pageParam, signal),
    ...pagedListDefaults,
  });

export const submissionsHeadQueryOptions = (filters: SubmissionFilters) =>
  queryOptions({
    queryKey: submissionKeys.head(submissionKeys.list(filters)),
    queryFn: ({ signal }) => fetchSubmissionPage("/submissions", filters, 0, signal),
    ...headDefaults,
  });

const feedSubmissionsPath = (feedId: string) => `/submissions/feed/${encodeURIComponent(feedId)}`;

/** One feed's submissions; each item's status, curator and notes are those of its link to this feed. */
export const feedSubmissionsInfiniteQueryOptions = (feedId: string, filters: SubmissionFilters) =>
  infiniteQueryOptions({
    queryKey: submissionKeys.feedList(feedId, filters),
    queryFn: ({ pageParam, signal }) =>
      fetchSubmissionPage(feedSubmissionsPath(feedId), filters, pageParam, signal),
    ...pagedListDefaults,
  });

export const feedSubmissionsHeadQueryOptions = (feedId: string, filters: SubmissionFilters) =>
  queryOptions({
    queryKey: submissionKeys.head(submissionKeys.feedList(feedId, filters)),
    queryFn: ({ signal }) => fetchSubmissionPage(feedSubmissionsPath(feedId), filters, 0, signal),
    ...headDefaults,
  });

/** What the polled first page says about the loaded list. */
export interface HeadComparison {
  /** Items above the reader's current top that the loaded pages do not hold yet. */
  fresh: Submission[];
  /** Loaded items with a newer copy in the head, by tweet id. */
  updated: Map<string, Submission>;
  /** Whether the head reaches down to an item already loaded; if not, what lies between is unknown. */
  overlaps: boolean;
}

export function compareHead(loaded: readonly Submission[], head: readonly Submission[]): HeadComparison {
  const byId = new Map(loaded.map((item) => [item.tweetId, item]));
  const firstKnown = head.findIndex((item) => byId.has(item.tweetId));
  const fresh = (firstKnown === -1 ? head : head.slice(0, firstKnown)).filter(
    (item) => !byId.has(item.tweetId),
  );
  const updated = new Map<string, Submission>();
  for (const item of head) {
    const current = byId.get(item.tweetId);
    if (current && JSON.stringify(current) !== JSON.stringify(item)) updated.set(item.tweetId, item);
  }
  return { fresh, updated, overlaps: firstKnown !== -1 };
}

/** The loaded pages as one list; an item that moved into a later page while scrolling shows once. */
export function loadedItems(pages: ReadonlyArray<Paged<Submission>>): Submission[] {
  const seen = new Set<string>();
  const items: Submission[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      if (seen.has(item.tweetId)) continue;
      seen.add(item.tweetId);
      items.push(item);
    }
  }
  return items;
}

export type SubmissionPages = InfiniteData<Paged<Submission>, number>;

/**
 * The loaded pages with a newly fetched first page merged in: new items on top of the first page, newer copies
 * of loaded items in their places, the total from the head. The later pages keep their items and page numbers,
 * so nothing is asked again and the next page follows on from the last one loaded (an item pushed down into it
 * by the new ones shows once). A head that shares no item with the loaded list (more new items than a page
 * holds, or everything loaded left the filter) leaves an unknown gap below it: the list restarts from the head.
 * Returns `data` itself when nothing changed.
 */
export function mergeHead(data: SubmissionPages, head: Paged<Submission>): SubmissionPages {
  const loaded = data.pages.flatMap((page) => page.items);
  const { fresh, updated, overlaps } = compareHead(loaded, head.items);
  if (!overlaps && (loaded.length > 0 || head.items.length > 0)) {
    return { pages: [head], pageParams: [head.pagination.page] };
  }
  const [first, ...rest] = data.pages;
  const sameTotal =
    first?.pagination.totalCount === head.pagination.totalCount &&
    first?.pagination.totalCountCapped === head.pagination.totalCountCapped;
  if (!first || (fresh.length === 0 && updated.size === 0 && sameTotal)) return data;
  const latest = (item: Submission) => updated.get(item.tweetId) ?? item;
  return {
    ...data,
    pages: [
      {
        items: [...fresh, ...first.items.map(latest)],
        pagination: {
          ...first.pagination,
          totalCount: head.pagination.totalCount,
          totalCountCapped: head.pagination.totalCountCapped,
        },
      },
      ...rest.map((page) => ({ ...page, items: page.items.map(latest) })),
    ],
  };
}

/** One submission with its feeds, their statuses and its moderation history (the submission page). */
export const submissionQueryOptions = (submissionId: string) =>
  queryOptions({
    queryKey: submissionKeys.detail(submissionId),
    queryFn: ({ signal }) => api<Submission>(`/submissions/${encodeURIComponent(submissionId)}`, { signal }),
  });
