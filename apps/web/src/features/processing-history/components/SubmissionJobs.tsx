import { type ProcessingJob, type ProcessingJobKind, shortJobId } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { ChevronRightIcon, InfoIcon } from "lucide-react";
import { Fragment, lazy, type ReactNode, Suspense, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { submissionJobsQueryOptions } from "#web/features/processing/api";
import { DateText } from "#web/features/processing/components/DateText";
import { JobActions } from "#web/features/processing/components/JobActions";
import { ProcessingStatusPill } from "#web/features/processing/components/ProcessingStatusPill";
import { useReprocessJob, useRetryJob } from "#web/features/processing/mutations";
import { retryBlockedId } from "#web/features/processing/view";
import { formatJobDate } from "#web/lib/format";
import { JobSteps } from "./JobSteps";

// Reprocess as a dry run first: its dialog (diffs, channel views) loads when it is first opened.
const ReprocessPreviewDialog = lazy(() => import("#web/features/dry-runs/components/ReprocessPreviewDialog"));

const KIND_LABELS: Record<ProcessingJobKind, string> = {
  approval: "Approval",
  retry: "Retry",
  reprocess: "Reprocess",
  tweak: "Tweak",
  recap: "Recap",
  dry_run: "Dry run",
  retraction: "Retraction",
  acknowledgement: "Acknowledgement",
  republish: "Publish again",
};

const JOB_COLUMNS = 5;

interface SubmissionJobsProps {
  feedId: string;
  submissionId: string;
}

/**
 * An expanded row: the submission's jobs, newest first, and the steps of the one being looked at. Dry runs
 * (previews, config tests, replays tried dry) are listed apart below, folded: they published nothing, and
 * they would otherwise crowd the jobs that did above them.
 */
export function SubmissionJobs({ feedId, submissionId }: SubmissionJobsProps) {
  const runs = useQuery(submissionJobsQueryOptions(feedId, submissionId, "exclude"));
  const dryRuns = useQuery(submissionJobsQueryOptions(feedId, submissionId, "only"));
  const [openJobId, setOpenJobId] = useState<string | null>(null);
  const retry = useRetryJob(feedId);
  const reprocess = useReprocessJob(feedId);
  const [previewJobId, setPreviewJobId] = useState<string | null>(null);

  if (runs.status === "pending") {
    return (
      <div className="flex flex-col gap-2 pt-2" aria-busy="true">
        <span className="sr-only">Loading processing jobs...</span>
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
      </div>
    );
  }
  if (runs.status === "error") {
    return <Alert>Error loading processing jobs: {runs.error.message}</Alert>;
  }

  const jobs = runs.data;
  const dryRunJobs = dryRuns.data ?? [];
  const openJob = [...jobs, ...dryRunJobs].find((job) => job.id === openJobId) ?? null;
  const busy = (mutation: typeof retry, jobId: string) =>
    mutation.isPending && mutation.variables?.jobId === jobId;
  const actionsOf = (job: ProcessingJob) => (
    <JobActions
      job={job}
      stepsOpen={openJobId === job.id}
      onViewSteps={() => setOpenJobId(job.id)}
      reprocessing={busy(reprocess, job.id)}
      onReprocess={() => reprocess.mutate({ jobId: job.id, submissionId })}
      retrying={busy(retry, job.id)}
      onRetry={() => retry.mutate({ jobId: job.id, submissionId })}
      onDryRun={() => setPreviewJobId(job.id)}
    />
  );

  return (
    <div className="flex flex-col gap-4" data-testid="processing-jobs">
      {jobs.length === 0 ? (
        <p className="rounded-md border border-dashed border-line bg-surface px-4 py-6 text-center text-sm text-muted">
          No processing jobs found.
        </p>
      ) : (
        <JobTable
          caption="Processing jobs of this submission, newest first"
          jobs={jobs}
          actionsOf={actionsOf}
        />
      )}
      {dryRunJobs.length > 0 ? (
        <details className="group rounded-md border border-line bg-surface" data-testid="dry-run-jobs">
          <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-3 text-sm font-medium text-ink [&::-webkit-details-marker]:hidden">
            <ChevronRightIcon
              aria-hidden="true"
              className="size-4 transition-transform group-open:rotate-90"
            />
            {`Dry runs (${dryRunJobs.length})`}
            <span className="font-normal text-muted">· previews and tests, nothing published</span>
          </summary>
          <div className="border-t border-line p-3">
            <JobTable
              caption="Dry runs of this submission, newest first"
              jobs={dryRunJobs}
              actionsOf={actionsOf}
              testId="dry-run-job"
            />
          </div>
        </details>
      ) : null}
      {openJob ? (
        <JobSteps
          key={openJob.id}
          feedId={feedId}
          job={openJob}
          submissionId={submissionId}
          onClose={() => setOpenJobId(null)}
        />
      ) : null}
      {previewJobId ? (
        <Suspense fallback={null}>
          <ReprocessPreviewDialog
            feedId={feedId}
            submissionId={submissionId}
            jobId={previewJobId}
            publishing={busy(reprocess, previewJobId)}
            onPublish={() =>
              reprocess.mutate(
                { jobId: previewJobId, submissionId },
                { onSuccess: () => setPreviewJobId(null) },
              )
            }
            onClose={() => setPreviewJobId(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

interface JobTableProps {
  caption: string;
  jobs: readonly ProcessingJob[];
  actionsOf: (job: ProcessingJob) => ReactNode;
  testId?: string;
}

function JobTable({ caption, jobs, actionsOf, testId = "processing-job" }: JobTableProps) {
  return (
    <Table stacked className="[&_td]:px-3 [&_th]:px-3">
      <caption className="sr-only">{caption}</caption>
      <TableHeader>
        <tr>
          <TableHead>Job ID</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Started</TableHead>
          <TableHead>Completed</TableHead>
          <TableHead>Actions</TableHead>
        </tr>
      </TableHeader>
      <TableBody>
        {jobs.map((job) => (
          <Fragment key={job.id}>
            <TableRow
              data-testid={testId}
              data-job-id={job.id}
              data-status={job.status}
              className={job.note || job.retryBlockedReason ? "border-b-0" : undefined}
            >
              <TableCell className="@max-2xl:basis-full">
                <JobIdentity job={job} />
              </TableCell>
              <TableCell label="Status">
                <ProcessingStatusPill status={job.status} />
              </TableCell>
              <TableCell label="Started" className="whitespace-nowrap text-muted tabular-nums">
                <DateText value={job.startedAt} format={formatJobDate} />
              </TableCell>
              <TableCell label="Completed" className="whitespace-nowrap text-muted tabular-nums">
                <DateText value={job.completedAt} format={formatJobDate} />
              </TableCell>
              <TableCell className="@max-2xl:basis-full">{actionsOf(job)}</TableCell>
            </TableRow>
            {job.note || job.retryBlockedReason ? (
              <tr className="@max-2xl:block">
                <td colSpan={JOB_COLUMNS} className="px-4 pb-3 @max-2xl:block">
                  <div className="flex flex-col gap-1">
                    {job.note ? (
                      <p className="flex items-start gap-2 text-xs text-muted">
                        <InfoIcon aria-hidden="true" className="mt-px size-3.5 shrink-0" />
                        {job.note}
                      </p>
                    ) : null}
                    {job.retryBlockedReason ? (
                      <p
                        id={retryBlockedId(job.id)}
                        className="flex items-start gap-2 text-xs text-muted"
                        data-testid="retry-blocked"
                      >
                        <InfoIcon aria-hidden="true" className="mt-px size-3.5 shrink-0" />
                        Retry Failed is off. {job.retryBlockedReason}
                      </p>
                    ) : null}
                  </div>
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </TableBody>
    </Table>
  );
}

/** The short id, with what made the job (and which job it follows up) in a quieter line below. */
export function JobIdentity({ job }: { job: ProcessingJob }) {
  return (
    <div className="flex flex-col gap-0.5">
      <code className="font-mono text-sm text-ink" title={job.id}>
        {shortJobId(job.id)}
      </code>
      <span className="text-xs whitespace-nowrap text-muted" data-testid="job-kind">
        {KIND_LABELS[job.kind]}
        {job.retryOfJobId ? ` of ${shortJobId(job.retryOfJobId)}` : ""}
      </span>
    </div>
  );
}
