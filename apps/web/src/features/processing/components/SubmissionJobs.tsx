import { type ProcessingJob, type ProcessingJobKind, shortJobId } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { InfoIcon } from "lucide-react";
import { Fragment, lazy, Suspense, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { formatJobDate } from "#web/lib/format";
import { submissionJobsQueryOptions } from "../api";
import { useReprocessJob, useRetryJob } from "../mutations";
import { retryBlockedId } from "../view";
import { DateText } from "./DateText";
import { JobActions } from "./JobActions";
import { JobSteps } from "./JobSteps";
import { ProcessingStatusPill } from "./ProcessingStatusPill";

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

/** An expanded row: the submission's jobs, newest first, and the steps of the one being looked at. */
export function SubmissionJobs({ feedId, submissionId }: SubmissionJobsProps) {
  const { data: jobs, status, error } = useQuery(submissionJobsQueryOptions(feedId, submissionId));
  const [openJobId, setOpenJobId] = useState<string | null>(null);
  const retry = useRetryJob(feedId);
  const reprocess = useReprocessJob(feedId);
  const [previewJobId, setPreviewJobId] = useState<string | null>(null);

  if (status === "pending") {
    return (
      <div className="flex flex-col gap-2 pt-2" aria-busy="true">
        <span className="sr-only">Loading processing jobs...</span>
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
      </div>
    );
  }
  if (status === "error") {
    return <Alert>Error loading processing jobs: {error.message}</Alert>;
  }
  if (jobs.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-line bg-surface px-4 py-6 text-center text-sm text-muted">
        No processing jobs found.
      </p>
    );
  }

  const openJob = jobs.find((job) => job.id === openJobId) ?? null;
  const busy = (mutation: typeof retry, jobId: string) =>
    mutation.isPending && mutation.variables?.jobId === jobId;

  return (
    <div className="flex flex-col gap-4" data-testid="processing-jobs">
      <Table className="[&_td]:px-3 [&_th]:px-3">
        <caption className="sr-only">Processing jobs of this submission, newest first</caption>
        <TableHeader>
          <tr>
            <TableHead className="w-40">Job ID</TableHead>
            <TableHead className="w-48">Status</TableHead>
            <TableHead className="w-48">Started</TableHead>
            <TableHead className="w-48">Completed</TableHead>
            <TableHead>Actions</TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {jobs.map((job) => (
            <Fragment key={job.id}>
              <TableRow
                data-testid="processing-job"
                data-job-id={job.id}
                data-status={job.status}
                className={job.note || job.retryBlockedReason ? "border-b-0" : undefined}
              >
                <TableCell>
                  <JobIdentity job={job} />
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
                    onReprocess={() => reprocess.mutate({ jobId: job.id, submissionId })}
                    retrying={busy(retry, job.id)}
                    onRetry={() => retry.mutate({ jobId: job.id, submissionId })}
                    onDryRun={() => setPreviewJobId(job.id)}
                  />
                </TableCell>
              </TableRow>
              {job.note || job.retryBlockedReason ? (
                <tr>
                  <td colSpan={JOB_COLUMNS} className="px-4 pb-3">
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
