import type {
  ProcessedSubmission,
  ProcessingJob,
  ProcessingJobStatus,
  ProcessingStep,
  ProcessingStepStatus,
} from "@curate/core";
import { formatDuration } from "@curate/core";

/** Jobs and steps are asked again every 5000 ms while one is running, so a run is watched as it goes. */
export const PROCESSING_POLL_MS = 5000;

/** The processing tab previews content by its first 100 characters. */
export const CONTENT_PREVIEW_LENGTH = 100;

/** The content cut at 100 characters, plus an ellipsis when anything was cut. */
export function contentPreview(content: string): string {
  return content.length > CONTENT_PREVIEW_LENGTH ? `${content.slice(0, CONTENT_PREVIEW_LENGTH)}...` : content;
}

const RUNNING_JOB: ReadonlySet<ProcessingJobStatus> = new Set(["pending", "processing"]);

/** Waiting for the worker or being worked on: either will change without anyone asking. */
export function isRunningJob(status: ProcessingJobStatus): boolean {
  return RUNNING_JOB.has(status);
}

/** `refetchInterval` of a submission's jobs: poll while any of them is waiting or running. */
export function jobsPollInterval(jobs: readonly Pick<ProcessingJob, "status">[] | undefined): number | false {
  return jobs?.some((job) => isRunningJob(job.status)) ? PROCESSING_POLL_MS : false;
}

/**
 * `refetchInterval` of a job's steps: poll while any step is processing, and while the job itself
 * is still waiting or running, whose steps are written as the worker gets to them.
 */
export function stepsPollInterval(
  steps: readonly Pick<ProcessingStep, "status">[] | undefined,
  jobStatus?: ProcessingJobStatus,
): number | false {
  const stepRunning = steps?.some((step) => step.status === "processing");
  return stepRunning || (jobStatus !== undefined && isRunningJob(jobStatus)) ? PROCESSING_POLL_MS : false;
}

/** `refetchInterval` of the rows, so a row's Latest Job Status follows the job it shows. */
export function rowsPollInterval(
  pages: readonly { items: readonly Pick<ProcessedSubmission, "latestJob">[] }[] | undefined,
): number | false {
  const running = pages?.some((page) =>
    page.items.some((item) => item.latestJob !== null && isRunningJob(item.latestJob.status)),
  );
  return running ? PROCESSING_POLL_MS : false;
}

/** Retry Failed has something to do only when the job ended with failed steps. */
export function hasFailedSteps(status: ProcessingJobStatus): boolean {
  return status === "failed" || status === "completed_with_errors";
}

/** The id of the line that says why a job's Retry Failed is disabled (its button is described by it). */
export function retryBlockedId(jobId: string): string {
  return `retry-blocked-${jobId}`;
}

/** Retry Step reruns a step from its stored input, so the step must have run and finished. */
export function canRetryStep(step: Pick<ProcessingStep, "status" | "input">): boolean {
  const finished: readonly ProcessingStepStatus[] = ["success", "failed"];
  return finished.includes(step.status) && step.input !== null;
}

/** How long a finished step took, in the tab's duration format (ms under a second, else seconds); null while it has not finished. */
export function stepDuration(step: Pick<ProcessingStep, "startedAt" | "completedAt">): string | null {
  if (!step.startedAt || !step.completedAt) return null;
  const ms = Date.parse(step.completedAt) - Date.parse(step.startedAt);
  return Number.isNaN(ms) ? null : formatDuration(ms);
}

/**
 * A step's input, output or config as the dialog shows and copies it: JSON indented by two spaces (a string too,
 * quoted, so the Input pane's text always parses back to the value). Nothing recorded gives an empty text.
 */
export function prettyJson(value: unknown): string {
  return value === undefined || value === null ? "" : JSON.stringify(value, null, 2);
}

export type InputCheck = { ok: true } | { ok: false; message: string | null };

/**
 * Whether the Input pane's text can be sent as `newInput`: it must parse as JSON (the server answers 400
 * otherwise). Empty text has nothing to show yet, so it fails without a message.
 */
export function checkInputText(text: string): InputCheck {
  if (!text.trim()) return { ok: false, message: null };
  try {
    JSON.parse(text);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** The feed page's badge: "1 failed job in the last 24 h", "2 failed jobs in the last 24 h". */
export function failedJobsText(count: number): string {
  return `${count} failed ${count === 1 ? "job" : "jobs"} in the last 24 h`;
}
