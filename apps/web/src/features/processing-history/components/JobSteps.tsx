import {
  type ProcessingJob,
  type ProcessingStep,
  type ProcessingStepStage,
  type ProcessingStepType,
  shortJobId,
} from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { CircleAlertIcon, XIcon } from "lucide-react";
import { Fragment, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { jobStepsQueryOptions } from "#web/features/processing/api";
import { DateText } from "#web/features/processing/components/DateText";
import { ProcessingStatusPill } from "#web/features/processing/components/ProcessingStatusPill";
import { useRetryStep } from "#web/features/processing/mutations";
import { canRetryStep, stepDuration } from "#web/features/processing/view";
import { JobPublications } from "#web/features/publications/components/JobPublications";
import { formatStepTime } from "#web/lib/format";
import { StepDetailDialog } from "./StepDetailDialog";

const TYPE_LABELS: Record<ProcessingStepType, string> = {
  transformation: "Transformation",
  distribution: "Distribution",
  retraction: "Retraction",
};

const STAGE_LABELS: Record<ProcessingStepStage, string> = {
  global: "Global",
  distributor: "Distributor",
  batch: "Batch",
};

const STEP_COLUMNS = 9;

interface JobStepsProps {
  feedId: string;
  job: ProcessingJob;
  /** Null for a recap run, which covers many submissions. */
  submissionId: string | null;
  onClose: () => void;
}

/** The steps of one job (View Steps), each with its details and Retry Step; Close Steps hides them. */
export function JobSteps({ feedId, job, submissionId, onClose }: JobStepsProps) {
  const { data: steps, status, error } = useQuery(jobStepsQueryOptions(feedId, job.id, job.status));
  const retryStep = useRetryStep(feedId);
  const [detailStepId, setDetailStepId] = useState<string | null>(null);
  const detailStep = steps?.find((step) => step.id === detailStepId) ?? null;
  const headingId = `steps-${job.id}`;

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-md border border-line bg-surface p-3 sm:p-4"
      data-testid="processing-steps"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          Steps of job <code className="font-mono text-sm font-medium">{shortJobId(job.id)}</code>
        </h3>
        <Button variant="ghost" size="sm" onClick={onClose}>
          <XIcon aria-hidden="true" />
          Close Steps
        </Button>
      </div>

      {status === "pending" ? (
        <div className="flex flex-col gap-2" aria-busy="true">
          <span className="sr-only">Loading steps...</span>
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      ) : status === "error" ? (
        <Alert>Error loading steps: {error.message}</Alert>
      ) : steps.length === 0 ? (
        <p className="px-2 py-6 text-center text-sm text-muted">No processing steps found.</p>
      ) : (
        <Table className="[&_td]:px-3 [&_th]:px-3">
          <caption className="sr-only">Steps of job {shortJobId(job.id)}, in order</caption>
          <TableHeader>
            <tr>
              <TableHead className="w-16">Order</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Stage</TableHead>
              <TableHead>Plugin</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Started</TableHead>
              <TableHead>Completed</TableHead>
              <TableHead>Duration</TableHead>
              <TableHead>Actions</TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {steps.map((step) => (
              <StepRow
                key={step.id}
                step={step}
                retrying={retryStep.isPending && retryStep.variables?.stepId === step.id}
                onViewDetails={() => setDetailStepId(step.id)}
                onRetry={() => retryStep.mutate({ stepId: step.id, submissionId })}
              />
            ))}
          </TableBody>
        </Table>
      )}

      {status === "success" && steps.some((step) => step.type !== "transformation") ? (
        <JobPublications jobId={job.id} jobStatus={job.status} retraction={job.kind === "retraction"} />
      ) : null}

      {detailStep ? (
        <StepDetailDialog
          feedId={feedId}
          step={detailStep}
          submissionId={submissionId}
          onClose={() => setDetailStepId(null)}
        />
      ) : null}
    </section>
  );
}

interface StepRowProps {
  step: ProcessingStep;
  retrying: boolean;
  onViewDetails: () => void;
  onRetry: () => void;
}

function StepRow({ step, retrying, onViewDetails, onRetry }: StepRowProps) {
  const duration = stepDuration(step);
  return (
    <Fragment>
      <TableRow
        data-testid="processing-step"
        data-step-order={step.stepOrder}
        data-status={step.status}
        className={step.error ? "border-b-0" : undefined}
      >
        <TableCell className="tabular-nums text-muted">{step.stepOrder}</TableCell>
        <TableCell className="whitespace-nowrap">{TYPE_LABELS[step.type]}</TableCell>
        <TableCell className="whitespace-nowrap">{STAGE_LABELS[step.stage]}</TableCell>
        <TableCell>
          <div className="flex flex-col gap-0.5">
            <code className="font-mono text-xs whitespace-nowrap text-ink">{step.pluginName}</code>
            {step.stepName ? <span className="text-xs text-muted">{step.stepName}</span> : null}
          </div>
        </TableCell>
        <TableCell>
          <ProcessingStatusPill status={step.status} />
        </TableCell>
        <TableCell className="whitespace-nowrap text-muted tabular-nums">
          <DateText value={step.startedAt} format={formatStepTime} />
        </TableCell>
        <TableCell className="whitespace-nowrap text-muted tabular-nums">
          <DateText value={step.completedAt} format={formatStepTime} />
        </TableCell>
        <TableCell className="whitespace-nowrap text-muted tabular-nums">
          {duration ?? (
            <>
              <span aria-hidden="true">—</span>
              <span className="sr-only">Not finished</span>
            </>
          )}
        </TableCell>
        <TableCell>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={onViewDetails}>
              View Details
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={!canRetryStep(step) || (step.type === "retraction" && step.status !== "failed")}
              loading={retrying}
              onClick={onRetry}
            >
              Retry Step
            </Button>
          </div>
        </TableCell>
      </TableRow>
      {step.error ? (
        <tr>
          <td colSpan={STEP_COLUMNS} className="px-4 pb-3">
            <p className="flex items-start gap-2 text-xs text-red-800" data-testid="step-error">
              <CircleAlertIcon aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              <span className="line-clamp-2 break-words">{step.error.message}</span>
            </p>
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}
