/** Processing jobs and steps: their kinds, statuses and labels; free of zod. */

/**
 * Why a job exists: an approval; a retry of failed steps or from one step; a reprocess with the latest config; a
 * tweaked step input. Later capabilities add recaps, dry runs, retractions and acknowledgements (no submission),
 * and `republish`: a moderator's explicit "publish again as a new post" of one branch, the only kind that posts a
 * second copy where the ledger already holds a live one.
 */
export const PROCESSING_JOB_KINDS = [
  "approval",
  "retry",
  "reprocess",
  "tweak",
  "recap",
  "dry_run",
  "retraction",
  "acknowledgement",
  "republish",
] as const;
export type ProcessingJobKind = (typeof PROCESSING_JOB_KINDS)[number];

/** The spec's job statuses, plus `cancelled` (an approval undone before it ran). */
export const PROCESSING_JOB_STATUSES = [
  "pending",
  "processing",
  "completed",
  "failed",
  "completed_with_errors",
  "cancelled",
] as const;
export type ProcessingJobStatus = (typeof PROCESSING_JOB_STATUSES)[number];

export const PROCESSING_STEP_STATUSES = ["pending", "processing", "success", "failed"] as const;
export type ProcessingStepStatus = (typeof PROCESSING_STEP_STATUSES)[number];

/** `retraction`: a retraction job's removal of one publication from its channel. */
export const PROCESSING_STEP_TYPES = ["transformation", "distribution", "retraction"] as const;
export type ProcessingStepType = (typeof PROCESSING_STEP_TYPES)[number];

export const PROCESSING_STEP_STAGES = ["global", "distributor", "batch"] as const;
export type ProcessingStepStage = (typeof PROCESSING_STEP_STAGES)[number];

/** Statuses after which a job never runs again (a retry makes a new job). */
export const FINISHED_JOB_STATUSES: readonly ProcessingJobStatus[] = [
  "completed",
  "failed",
  "completed_with_errors",
  "cancelled",
];

/** The processing tab shows a job id by its first 8 characters plus an ellipsis. */
export function shortJobId(id: string): string {
  return `${id.slice(0, 8)}...`;
}

/** A duration in ms under a second, else in seconds with 2 decimals. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}
