import type { Paged, Submission } from "@curate/core";
import {
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
  type UseQueryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { InboxIcon, Loader2Icon, RotateCwIcon } from "lucide-react";
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { compareHead, loadedItems, mergeHead, type SubmissionPages } from "#web/features/submissions/api";
import { useLoadMoreSentinel } from "#web/features/submissions/hooks/use-load-more-sentinel";
import {
  ANCHOR_ATTRIBUTE,
  anchorShift,
  captureScrollAnchor,
  type ScrollAnchor,
} from "#web/features/submissions/scroll-anchor";
import { SubmissionCard, SubmissionCardSkeleton } from "./SubmissionCard";

type SubmissionPagesOptions<TKey extends QueryKey> = UseInfiniteQueryOptions<
  Paged<Submission>,
  Error,
  InfiniteData<Paged<Submission>>,
  TKey,
  number
>;

type HeadOptions<THeadKey extends QueryKey> = UseQueryOptions<
  Paged<Submission>,
  Error,
  Paged<Submission>,
  THeadKey
>;

interface SubmissionListProps<TKey extends QueryKey, THeadKey extends QueryKey> {
  options: SubmissionPagesOptions<TKey>;
  /** The same list's first page alone, polled to keep the list fresh without refetching every loaded page. */
  headOptions: HeadOptions<THeadKey>;
  /** Shown instead of the generic empty message when the list holds nothing at all. */
  empty?: ReactNode;
  /** Shown above the cards once the first page arrived, e.g. the total. */
  /** `capped`: more than `totalCount` match (a search counts up to a cap); show it as "1,000+". */
  renderSummary?: (totalCount: number, capped: boolean) => ReactNode;
  /** Draws one list entry; the curation tab wraps the card with moderation controls. Defaults to the card. */
  renderItem?: (submission: Submission, index: number) => ReactNode;
}

/** An infinitely scrolling list of submission cards over any paged submissions query. */
export function SubmissionList<TKey extends QueryKey, THeadKey extends QueryKey>({
  options,
  headOptions,
  empty,
  renderSummary,
  renderItem = (submission) => <SubmissionCard submission={submission} />,
}: SubmissionListProps<TKey, THeadKey>) {
  const queryClient = useQueryClient();
  const { data, status, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useInfiniteQuery(options);
  const firstPage = data?.pages[0];
  // The list's own first page is the head's first answer: no second request for what just arrived.
  useEffect(() => {
    if (!firstPage || queryClient.getQueryData(headOptions.queryKey) !== undefined) return;
    const updatedAt = queryClient.getQueryState(options.queryKey)?.dataUpdatedAt;
    queryClient.setQueryData<Paged<Submission>>(headOptions.queryKey, firstPage, { updatedAt });
  }, [firstPage, queryClient, headOptions.queryKey, options.queryKey]);
  const head = useQuery({
    ...headOptions,
    enabled: status === "success" && queryClient.getQueryData(headOptions.queryKey) !== undefined,
  });
  const listRef = useRef<HTMLUListElement>(null);
  const loaded = useMemo(() => loadedItems(data?.pages ?? []), [data]);

  // Each head answer is merged into the loaded pages once (never again when the loaded list changes, which would
  // undo a moderator's optimistic change): new items on top, newer copies in place. What the reader is looking
  // at stays where it is on screen: the entry at the top of the viewport is measured before and after, and the
  // window scrolls by the difference.
  const appliedHead = useRef(0);
  const pendingAnchor = useRef<ScrollAnchor | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    if (!head.data || head.dataUpdatedAt <= appliedHead.current) return;
    appliedHead.current = head.dataUpdatedAt;
    const latest = head.data;
    const previous = queryClient.getQueryData<SubmissionPages>(options.queryKey);
    if (!previous) return;
    const merged = mergeHead(previous, latest);
    if (merged === previous) return;
    const arrived = compareHead(loadedItems(previous.pages), latest.items).fresh.length;
    pendingAnchor.current = captureScrollAnchor(listRef.current);
    queryClient.setQueryData<SubmissionPages>(options.queryKey, merged);
    if (arrived > 0) {
      setAnnouncement(
        `${arrived} new ${arrived === 1 ? "submission" : "submissions"} at the top of the list.`,
      );
    }
  }, [head.data, head.dataUpdatedAt, queryClient, options.queryKey]);
  useLayoutEffect(() => {
    const anchor = pendingAnchor.current;
    if (!anchor || !data) return;
    pendingAnchor.current = null;
    const shift = anchorShift(listRef.current, anchor);
    if (shift !== 0) window.scrollBy(0, shift);
  }, [data]);

  const sentinelRef = useLoadMoreSentinel<HTMLDivElement>(
    () => {
      void fetchNextPage();
    },
    status === "success" && hasNextPage && !isFetchingNextPage,
  );

  if (status === "pending") {
    return (
      <div role="status" className="flex flex-col gap-4" aria-busy="true">
        <p className="flex items-center gap-2 text-sm text-muted">
          <Loader2Icon className="size-4 animate-spin" aria-hidden="true" />
          Loading submissions...
        </p>
        <SubmissionCardSkeleton />
        <SubmissionCardSkeleton />
        <SubmissionCardSkeleton />
      </div>
    );
  }

  if (status === "error") {
    return (
      <Alert layout="block" title="Failed to load submissions">
        <p className="max-w-md">{error.message}</p>
        <Button variant="secondary" size="sm" onClick={() => void refetch()}>
          <RotateCwIcon aria-hidden="true" />
          Try again
        </Button>
      </Alert>
    );
  }

  const submissions = loaded;
  const totalCount = data.pages[0]?.pagination.totalCount ?? 0;
  const totalCapped = data.pages[0]?.pagination.totalCountCapped === true;

  if (submissions.length === 0) {
    if (empty) return <>{empty}</>;
    return (
      <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
        <span className="inline-flex size-11 items-center justify-center rounded-full bg-zinc-100 text-muted">
          <InboxIcon className="size-5" aria-hidden="true" />
        </span>
        <p className="font-medium text-ink">No submissions found</p>
        <p className="text-sm text-muted">Try another search or filter.</p>
      </Card>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {renderSummary?.(totalCount, totalCapped)}
      <p className="sr-only" aria-live="polite" data-testid="list-announcer">
        {announcement}
      </p>
      <ul ref={listRef} className="flex flex-col gap-4" aria-label="Submissions">
        {submissions.map((submission, index) => (
          <li key={submission.tweetId} {...{ [ANCHOR_ATTRIBUTE]: submission.tweetId }}>
            {renderItem(submission, index)}
          </li>
        ))}
      </ul>
      <div ref={sentinelRef} aria-hidden="true" />
      <p className="flex h-12 items-center justify-center gap-2 text-sm text-muted" aria-live="polite">
        {isFetchingNextPage ? (
          <>
            <Loader2Icon className="size-4 animate-spin" aria-hidden="true" />
            Loading more submissions...
          </>
        ) : hasNextPage ? null : (
          "No more submissions to load"
        )}
      </p>
    </div>
  );
}
