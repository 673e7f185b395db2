import type { ProcessingJob } from "@curate/core";
import { FlaskConicalIcon, ListTreeIcon, RotateCcwIcon, WorkflowIcon } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { hasFailedSteps, retryBlockedId } from "../view";

interface JobActionsProps {
  job: ProcessingJob;
  stepsOpen: boolean;
  onViewSteps: () => void;
  reprocessing: boolean;
  onReprocess: () => void;
  retrying: boolean;
  onRetry: () => void;
  /** Offers "Dry run" (reprocess as a dry run first) when given. */
  onDryRun?: () => void;
}

/**
 * A job's row actions, alike for a submission's jobs and a recap's runs. A dry run has its steps to read and
 * nothing else: its plan may be a config never saved, and it published nothing to retry or run again.
 */
export function JobActions(props: JobActionsProps) {
  const { job } = props;
  const viewSteps = (
    <Button
      variant={props.stepsOpen ? "primary" : "secondary"}
      size="sm"
      aria-pressed={props.stepsOpen}
      onClick={props.onViewSteps}
    >
      <ListTreeIcon aria-hidden="true" />
      View Steps
    </Button>
  );
  if (job.kind === "dry_run") return <div className="flex flex-wrap gap-2">{viewSteps}</div>;
  // A retraction or an acknowledgement is retried, not reprocessed (an acknowledgement sent again would reply
  // twice).
  const replayable = job.kind !== "retraction" && job.kind !== "acknowledgement";
  return (
    <div className="flex flex-wrap gap-2">
      {viewSteps}
      <Button
        variant="secondary"
        size="sm"
        disabled={!replayable}
        title={
          job.kind === "retraction"
            ? "A retraction is retried, not reprocessed"
            : job.kind === "acknowledgement"
              ? "An acknowledgement is retried, not reprocessed"
              : undefined
        }
        loading={props.reprocessing}
        onClick={props.onReprocess}
      >
        <WorkflowIcon aria-hidden="true" />
        Reprocess
      </Button>
      {props.onDryRun ? (
        <Button
          variant="ghost"
          size="sm"
          disabled={!replayable}
          onClick={props.onDryRun}
          aria-label={`Reprocess job ${job.id.slice(0, 8)} as a dry run first`}
        >
          <FlaskConicalIcon aria-hidden="true" />
          Dry run
        </Button>
      ) : null}
      <Button
        variant="secondary"
        size="sm"
        disabled={!hasFailedSteps(job.status) || job.retryBlockedReason !== null}
        title={job.retryBlockedReason ?? undefined}
        aria-describedby={job.retryBlockedReason ? retryBlockedId(job.id) : undefined}
        loading={props.retrying}
        onClick={props.onRetry}
      >
        <RotateCcwIcon aria-hidden="true" />
        Retry Failed
      </Button>
    </div>
  );
}
