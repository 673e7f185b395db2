import type { Paged, Submission } from "@curate/core";
import {
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
  useInfiniteQuery,
} from "@tanstack/react-query";
import { InboxIcon, Loader2Icon, RotateCwIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { useLoadMoreSentinel } from "#web/features/submissions/hooks/use-load-more-sentinel";
import { SubmissionCard, SubmissionCardSkeleton } from "./SubmissionCard";

type SubmissionPagesOptions<TKey extends QueryKey> = UseInfiniteQueryOptions<
  Paged<Submission>,
  Error,
  InfiniteData<Paged<Submission>>,
  TKey,
  number
>;

interface SubmissionListProps<TKey extends QueryKey> {
  options: SubmissionPagesOptions<TKey>;
  /** Shown above the cards once the first page arrived, e.g. the total. */
  renderSummary?: (totalCount: number) => ReactNode;
  /** Draws one list entry; the curation tab wraps the card with moderation controls. Defaults to the card. */
  renderItem?: (submission: Submission, index: number) => ReactNode;
}

/** An infinitely scrolling list of submission cards over any paged submissions query. */
export function SubmissionList<TKey extends QueryKey>({
  options,
  renderSummary,
  renderItem = (submission) => <SubmissionCard submission={submission} />,
}: SubmissionListProps<TKey>) {
  const { data, status, error, refetch, hasNextPage, isFetchingNextPage, fetchNextPage } =
    useInfiniteQuery(options);
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

  const submissions = data.pages.flatMap((page) => page.items);
  const totalCount = data.pages[0]?.pagination.totalCount ?? 0;

  if (submissions.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
        <span className="inline-flex size-11 items-center justify-center rounded-full bg-zinc-100 text-muted">
          <InboxIcon className="size-5" aria-hidden="true" />
        </span>
        <p className="font-medium text-ink">No submissions found</p>
        <p className="text-sm text-muted">Try another search or status filter.</p>
      </Card>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {renderSummary?.(totalCount)}
      <ul className="flex flex-col gap-4" aria-label="Submissions">
        {submissions.map((submission, index) => (
          <li key={submission.tweetId}>{renderItem(submission, index)}</li>
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
