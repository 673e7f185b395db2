import { formatRunTime, type ProcessingJob, type RecapStatus } from "@curate/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { CalendarClockIcon, InfoIcon, PlayIcon } from "lucide-react";
import { Fragment, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { recapRunsQueryOptions, recapStatusesQueryOptions } from "#web/features/processing/api";
import { DateText } from "#web/features/processing/components/DateText";
import { JobActions } from "#web/features/processing/components/JobActions";
import { ProcessingStatusPill } from "#web/features/processing/components/ProcessingStatusPill";
import { useReprocessJob, useRetryJob, useRunRecap } from "#web/features/processing/mutations";
import { formatJobDate } from "#web/lib/format";
import { JobSteps } from "./JobSteps";
import { JobIdentity } from "./SubmissionJobs";

const RUN_COLUMNS = 6;

/** The processing tab's Recaps: each recap with Run now, then its runs with the jobs' inspection and retries. */
export function RecapRuns({ feedId }: { feedId: string }) {
  const recaps = useQuery(recapStatusesQueryOptions(feedId));
  return (
    <section aria-labelledby="recaps-title" className="flex flex-col gap-4" data-testid="recaps">
      <div className="flex flex-col gap-1">
        <h3 id="recaps-title" className="font-display text-lg font-semibold">
          Recaps
        </h3>
        <p className="text-sm text-muted">Scheduled digests of this feed's approved posts, and their runs.</p>
      </div>
      {recaps.status === "pending" ? (
        <Skeleton className="h-20 w-full" />
      ) : recaps.status === "error" ? (
        <Alert>Error loading recaps: {recaps.error.message}</Alert>
      ) : recaps.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-line bg-surface px-4 py-6 text-center text-sm text-muted">
          This feed has no recaps. Add one in the Recaps section of the feed's edit page.
        </p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {recaps.data.map((recap) => (
            <RecapCard key={recap.id} feedId={feedId} recap={recap} />
          ))}
        </ul>
      )}
      <Runs
        feedId={feedId}
        names={new Map((recaps.data ?? []).map((recap) => [recap.id, recap.name]))}
        hasRecaps={(recaps.data?.length ?? 0) > 0}
      />
    </section>
  );
}

function RecapCard({ feedId, recap }: { feedId: string; recap: RecapStatus }) {
  const run = useRunRecap(feedId);
  return (
    <li
      className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4"
      data-testid="recap"
      data-recap-id={recap.id}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <p className="truncate font-medium text-ink">{recap.name}</p>
          <p className="flex items-center gap-1.5 text-sm text-muted">
            <CalendarClockIcon aria-hidden="true" className="size-3.5 shrink-0" />
            <span>
              {recap.description ?? recap.schedule} · {recap.timezone.replaceAll("_", " ")}
            </span>
          </p>
        </div>
        {recap.enabled ? null : <Badge tone="neutral">Disabled</Badge>}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted">Next run</dt>
        <dd className="text-ink tabular-nums">
          {recap.nextRunAt ? formatRunTime(new Date(recap.nextRunAt), recap.timezone) : "Not scheduled"}
        </dd>
        <dt className="text-muted">Covered until</dt>
        <dd className="text-ink tabular-nums">
          {recap.coveredUntil ? formatRunTime(new Date(recap.coveredUntil), recap.timezone) : "No run yet"}
        </dd>
      </dl>
      <Button
        variant="secondary"
        size="sm"
        className="w-fit"
        loading={run.isPending}
        aria-label={`Run now: ${recap.name}`}
        onClick={() => run.mutate(recap.id)}
      >
        <PlayIcon aria-hidden="true" />
        Run now
      </Button>
    </li>
  );
}

function Runs({
  feedId,
  names,
  hasRecaps,
}: {
  feedId: string;
  names: Map<string, string>;
  /** Without recaps (and without past runs) the section's own empty message says it all. */
  hasRecaps: boolean;
}) {
  const runs = useInfiniteQuery(recapRunsQueryOptions(feedId));
  const [openJobId, setOpenJobId] = useState<string | null>(null);
  const retry = useRetryJob(feedId);
  const reprocess = useReprocessJob(feedId);

  if (runs.status === "pending") return <Skeleton className="h-24 w-full" />;
  if (runs.status === "error") return <Alert>Error loading recap runs: {runs.error.message}</Alert>;
  const jobs = runs.data.pages.flatMap((page) => page.items);
  if (jobs.length === 0) {
    return hasRecaps ? <p className="text-sm text-muted">No recap runs yet.</p> : null;
  }
  const openJob = jobs.find((job) => job.id === openJobId) ?? null;
  const busy = (mutation: typeof retry, jobId: string) =>
    mutation.isPending && mutation.variables?.jobId === jobId;

  return (
    <div className="flex flex-col gap-4">
      <Table className="[&_td]:px-3 [&_th]:px-3">
        <caption className="sr-only">Recap runs, newest first</caption>
        <TableHeader>
          <tr>
            <TableHead className="w-40">Run</TableHead>
            <TableHead className="w-64">Period</TableHead>
            <TableHead className="w-40">Status</TableHead>
            <TableHead className="w-48">Started</TableHead>
            <TableHead className="w-48">Completed</TableHead>
            <TableHead>Actions</TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {jobs.map((job) => (
            <Fragment key={job.id}>
              <TableRow
                data-testid="recap-run"
                data-job-id={job.id}
                data-status={job.status}
                className={job.note ? "border-b-0" : undefined}
              >
                <TableCell>
                  <div className="flex flex-col gap-0.5">
                    <span className="text-sm font-medium whitespace-nowrap text-ink">
                      {names.get(job.recapId ?? "") ?? job.recapId}
                    </span>
                    <JobIdentity job={job} />
                  </div>
                </TableCell>
                <TableCell className="text-xs whitespace-nowrap text-muted tabular-nums">
                  <Period job={job} />
                </TableCell>
                <TableCell>
                  <ProcessingStatusPill status={job.status} />
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted tabular-nums">
                  <DateText value={job.startedAt} format={formatJobDate} />
                </TableCell>
                <TableCell className="whitespace-nowrap text-muted tabular-nums">
                  <DateText value={job.completedAt} format={formatJobDate} />
                </TableCell>
                <TableCell>
                  <JobActions
                    job={job}
                    stepsOpen={openJobId === job.id}
                    onViewSteps={() => setOpenJobId(job.id)}
                    reprocessing={busy(reprocess, job.id)}
                    onReprocess={() => reprocess.mutate({ jobId: job.id, submissionId: null })}
                    retrying={busy(retry, job.id)}
                    onRetry={() => retry.mutate({ jobId: job.id, submissionId: null })}
                  />
                </TableCell>
              </TableRow>
              {job.note ? (
                <tr>
                  <td colSpan={RUN_COLUMNS} className="px-4 pb-3">
                    <p className="flex items-start gap-2 text-xs text-muted" data-testid="recap-run-note">
                      <InfoIcon aria-hidden="true" className="mt-px size-3.5 shrink-0" />
                      {job.note}
                    </p>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </TableBody>
      </Table>
      {runs.hasNextPage ? (
        <Button
          variant="secondary"
          className="self-center"
          loading={runs.isFetchingNextPage}
          onClick={() => void runs.fetchNextPage()}
        >
          Load More
        </Button>
      ) : null}
      {openJob ? (
        <JobSteps
          key={openJob.id}
          feedId={feedId}
          job={openJob}
          submissionId={null}
          onClose={() => setOpenJobId(null)}
        />
      ) : null}
    </div>
  );
}

/** The approvals a run covers, in the viewer's time. */
function Period({ job }: { job: ProcessingJob }) {
  if (!job.periodStart || !job.periodEnd) return <span>—</span>;
  return (
    <span className="flex flex-col">
      <time dateTime={job.periodStart}>{formatJobDate(job.periodStart)}</time>
      <span>
        to <time dateTime={job.periodEnd}>{formatJobDate(job.periodEnd)}</time>
      </span>
    </span>
  );
}
