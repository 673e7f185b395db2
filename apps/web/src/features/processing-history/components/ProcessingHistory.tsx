import type { ProcessedSubmission } from "@curate/core";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDownIcon, RefreshCwIcon, XIcon } from "lucide-react";
import { Fragment, useState } from "react";
import { AccessRestricted } from "#web/components/ui/access-restricted";
import { Alert } from "#web/components/ui/alert";
import { badgeClasses } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { useModeratorAccess } from "#web/features/moderation/api";
import { processedSubmissionsQueryOptions, processingKeys } from "#web/features/processing/api";
import { PausedChannelsAlert } from "#web/features/processing/components/PausedChannelsAlert";
import { ProcessingStatusPill } from "#web/features/processing/components/ProcessingStatusPill";
import type { ProcessingSearch } from "#web/features/processing/search";
import { contentPreview } from "#web/features/processing/view";
import { StatusPill } from "#web/features/submissions/components/StatusPill";
import { formatCount, formatJobDate } from "#web/lib/format";
import { RecapRuns } from "./RecapRuns";
import { SubmissionJobs } from "./SubmissionJobs";

const COLUMN_COUNT = 5;

interface ProcessingHistoryProps {
  feedId: string;
  search: ProcessingSearch;
  /** Drops `failures=recent` from the address. */
  onClearFailures: () => void;
}

/** The processing tab, for the feed's moderators only. */
export function ProcessingHistory({ feedId, search, onClearFailures }: ProcessingHistoryProps) {
  const access = useModeratorAccess(feedId);

  return (
    <section aria-labelledby="processing-title" className="flex flex-col gap-5">
      <SectionHeader
        id="processing-title"
        title="Processing History"
        actions={access === "granted" ? <RefreshButton feedId={feedId} /> : null}
      />
      {access === "checking" ? (
        <RowsSkeleton />
      ) : access === "denied" ? (
        <AccessRestricted>
          You need to be a moderator of this feed to view the processing history.
        </AccessRestricted>
      ) : (
        <>
          <PausedChannelsAlert feedId={feedId} />
          {search.failures === "recent" ? <FailuresFilter onClear={onClearFailures} /> : null}
          <ProcessedSubmissions feedId={feedId} search={search} />
          <div className="border-t border-line pt-6">
            <RecapRuns feedId={feedId} />
          </div>
        </>
      )}
    </section>
  );
}

/** Asks again for everything of this feed on show: rows, open jobs and steps, the failure count. */
function RefreshButton({ feedId }: { feedId: string }) {
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void queryClient
      .invalidateQueries({ queryKey: processingKeys.feed(feedId) })
      .finally(() => setRefreshing(false));
  };
  return (
    <Button variant="secondary" size="sm" onClick={refresh} loading={refreshing}>
      <RefreshCwIcon aria-hidden="true" />
      Refresh
    </Button>
  );
}

function FailuresFilter({ onClear }: { onClear: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-md border border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-800"
      data-testid="failures-filter"
    >
      <span className="flex items-center gap-2">
        <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-red-500" />
        Showing submissions with failed jobs in the last 24 hours
      </span>
      <Button variant="ghost" size="sm" className="-my-1 text-red-800 hover:bg-red-100" onClick={onClear}>
        <XIcon aria-hidden="true" />
        Clear
      </Button>
    </div>
  );
}

function ProcessedSubmissions({ feedId, search }: { feedId: string; search: ProcessingSearch }) {
  const { data, status, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery(
    processedSubmissionsQueryOptions(feedId, search),
  );
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  if (status === "pending") return <RowsSkeleton />;
  if (status === "error") {
    return <Alert layout="block">Error loading processing history: {error.message}</Alert>;
  }

  const rows = data.pages.flatMap((page) => page.items);
  const total = data.pages.at(-1)?.pagination.totalCount ?? rows.length;
  if (rows.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-line bg-surface px-6 py-12 text-center text-sm text-muted">
        {search.failures === "recent"
          ? "No submissions with failed jobs in the last 24 hours."
          : "No approved submissions found in this feed."}
      </p>
    );
  }

  const toggle = (submissionId: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(submissionId)) next.add(submissionId);
      return next;
    });

  return (
    <div className="flex flex-col gap-4">
      <Table stacked data-testid="processing-table">
        <caption className="sr-only">
          Approved submissions of this feed and their latest processing job
        </caption>
        <TableHeader>
          <tr>
            <TableHead>Content</TableHead>
            <TableHead className="w-44">Submission Date</TableHead>
            <TableHead className="w-32">Status</TableHead>
            <TableHead className="w-48">Latest Job Status</TableHead>
            <TableHead className="w-56">Actions</TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <SubmissionRow
              key={row.submissionId}
              feedId={feedId}
              row={row}
              expanded={expanded.has(row.submissionId)}
              onToggle={() => toggle(row.submissionId)}
            />
          ))}
        </TableBody>
      </Table>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted">
          Showing {formatCount(rows.length)} of {formatCount(total)}
        </p>
        {hasNextPage ? (
          <Button variant="secondary" onClick={() => void fetchNextPage()} loading={isFetchingNextPage}>
            Load More
          </Button>
        ) : null}
      </div>
    </div>
  );
}

interface SubmissionRowProps {
  feedId: string;
  row: ProcessedSubmission;
  expanded: boolean;
  onToggle: () => void;
}

function SubmissionRow({ feedId, row, expanded, onToggle }: SubmissionRowProps) {
  const panelId = `jobs-${row.submissionId}`;
  return (
    <Fragment>
      <TableRow
        data-testid="processing-row"
        data-submission-id={row.submissionId}
        className={expanded ? "bg-zinc-50/60" : undefined}
      >
        <TableCell className="max-w-0 min-w-48 @max-2xl:max-w-none @max-2xl:basis-full">
          <p className="break-words text-ink" title={row.content}>
            {contentPreview(row.content)}
          </p>
          <p className="mt-1 text-xs text-muted">@{row.username}</p>
        </TableCell>
        <TableCell label="Submission Date" className="whitespace-nowrap text-muted tabular-nums">
          {formatJobDate(row.submittedAt)}
        </TableCell>
        <TableCell label="Status">
          {row.retracted ? (
            <span className={badgeClasses("red")} title="Approved, then retracted">
              Retracted
            </span>
          ) : (
            <StatusPill status="approved" />
          )}
        </TableCell>
        <TableCell label="Latest Job Status">
          {row.latestJob ? (
            <ProcessingStatusPill status={row.latestJob.status} />
          ) : (
            <span className="text-muted">No Jobs</span>
          )}
        </TableCell>
        <TableCell className="@max-2xl:basis-full">
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={expanded}
            aria-controls={expanded ? panelId : undefined}
            onClick={onToggle}
          >
            <ChevronDownIcon
              aria-hidden="true"
              className={expanded ? "rotate-180 transition-transform" : "transition-transform"}
            />
            {expanded ? "Hide Processing Jobs" : "View Processing Jobs"}
          </Button>
        </TableCell>
      </TableRow>
      {expanded ? (
        <tr id={panelId} className="bg-zinc-50/60 @max-2xl:block">
          <td colSpan={COLUMN_COUNT} className="px-4 pt-1 pb-5 @max-2xl:block @max-2xl:px-3">
            <SubmissionJobs feedId={feedId} submissionId={row.submissionId} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

function RowsSkeleton() {
  return (
    <div className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" aria-busy="true">
      <span className="sr-only">Loading processing history...</span>
      {[0, 1, 2, 3, 4].map((row) => (
        <div key={row} className="flex items-center gap-4">
          <Skeleton className="h-5 flex-1" />
          <Skeleton className="hidden h-5 w-32 sm:block" />
          <Skeleton className="h-5 w-20" />
          <Skeleton className="h-8 w-36" />
        </div>
      ))}
    </div>
  );
}
