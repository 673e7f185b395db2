import { z } from "zod";
import { pageQuery, paginationSchema } from "./envelope.ts";
import {
  PROCESSING_JOB_KINDS,
  PROCESSING_JOB_STATUSES,
  PROCESSING_STEP_STAGES,
  PROCESSING_STEP_STATUSES,
  PROCESSING_STEP_TYPES,
} from "./processing-rules.ts";

/** A processing job as the API answers it (plus its kind and why it ended without steps). */
export const processingJobSchema = z.object({
  id: z.string(),
  kind: z.enum(PROCESSING_JOB_KINDS),
  submissionId: z.string().nullable(),
  feedId: z.string(),
  status: z.enum(PROCESSING_JOB_STATUSES),
  idempotencyKey: z.string(),
  retryOfJobId: z.string().nullable(),
  note: z.string().nullable(),
  attempts: z.number().int(),
  requestedBy: z.string().nullable(),
  /** A recap run's recap (its id in the feed's `outputs.recap`), and the approvals it covers: [start, end). */
  recapId: z.string().nullable(),
  /**
   * Why Retry Failed has nothing left to do although the job has failed steps: later jobs linked to it by
   * `retryOfJobId` published every branch that failed here. Null when Retry Failed applies (or the job has no
   * failed steps).
   */
  retryBlockedReason: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProcessingJob = z.infer<typeof processingJobSchema>;

export const stepErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  retryable: z.boolean(),
  /** The paused channel a held step waits for (codes CHANNEL_PAUSED and CREDENTIALS_REJECTED). */
  channelKey: z.string().optional(),
});
export type StepErrorBody = z.infer<typeof stepErrorSchema>;

export const processingStepSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  stepOrder: z.number().int(),
  type: z.enum(PROCESSING_STEP_TYPES),
  stage: z.enum(PROCESSING_STEP_STAGES),
  branch: z.number().int().nullable(),
  pluginName: z.string(),
  /** An external plugin's code as run: the sha-256 of its entry point (null for built-ins). */
  pluginVersion: z.string().nullable(),
  stepName: z.string().nullable(),
  config: z.unknown().nullable(),
  status: z.enum(PROCESSING_STEP_STATUSES),
  input: z.unknown().nullable(),
  output: z.unknown().nullable(),
  error: stepErrorSchema.nullable(),
  /** What the distribution passed to its channel to deduplicate (the same for retries of one publication). */
  idempotencyKey: z.string().nullable(),
  attempts: z.number().int(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProcessingStep = z.infer<typeof processingStepSchema>;

/** Which of a submission's jobs to list: dry runs (previews, config tests, replays) apart from those that ran. */
export const JOB_LIST_DRY_RUN_FILTERS = ["exclude", "only"] as const;
export type JobListDryRunFilter = (typeof JOB_LIST_DRY_RUN_FILTERS)[number];

export const jobsQuerySchema = z.object({
  feedId: z.string().trim().min(1, "Feed ID is required").max(64),
  dryRuns: z
    .enum(JOB_LIST_DRY_RUN_FILTERS, { error: 'dryRuns must be "exclude" or "only"' })
    .optional()
    .describe("`exclude`: the jobs that ran for real; `only`: the dry runs; absent: every job"),
});

export const jobListSchema = z.object({ jobs: z.array(processingJobSchema) });
export const stepListSchema = z.object({ steps: z.array(processingStepSchema) });
export const jobAnswerSchema = z.object({ job: processingJobSchema });

/** The step's edited input, as the text of the Input pane (JSON). */
export const tweakRequestSchema = z.object({
  newInput: z
    .string({ error: "newInput is required" })
    .max(256 * 1024, "The input is too large (at most 256 KB)"),
});

/** One row of the processing tab: an approved submission of the feed and its latest job. */
export const processedSubmissionSchema = z.object({
  submissionId: z.string(),
  content: z.string(),
  username: z.string(),
  submittedAt: z.string(),
  approvedAt: z.string().nullable(),
  /** Retracted after its approval (now rejected): listed so its retraction job can be inspected and retried. */
  retracted: z.boolean(),
  latestJob: z
    .object({ id: z.string(), status: z.enum(PROCESSING_JOB_STATUSES), startedAt: z.string().nullable() })
    .nullable(),
});
export type ProcessedSubmission = z.infer<typeof processedSubmissionSchema>;

export const processedSubmissionsQuerySchema = z.object({
  ...pageQuery,
  /** `recent`: only submissions with a failed or partly failed job in the last 24 hours. */
  failures: z.enum(["recent"]).optional(),
});

export const processedSubmissionPageSchema = z.object({
  items: z.array(processedSubmissionSchema),
  pagination: paginationSchema,
});

/**
 * The feed page's badge for owners and moderators: failed or partly failed jobs of the last 24 hours, and how many
 * of the feed's channels are paused because they refused its credentials.
 */
export const processingSummarySchema = z.object({
  failedLast24h: z.number().int(),
  pausedChannels: z.number().int(),
});
export type ProcessingSummary = z.infer<typeof processingSummarySchema>;

/**
 * A feed's channel that refused its credentials (a revoked token, a bot removed from the chat): its publications
 * are held instead of failing one by one, until an owner fixes the cause and resumes it.
 */
export const channelPauseSchema = z.object({
  /** Which of the feed's destinations: the plugin and a fingerprint of its config. */
  channelKey: z.string(),
  pluginName: z.string(),
  /** The step's readable name ("Telegram"). */
  stepName: z.string().nullable(),
  code: z.string(),
  /** What the channel said, and what to fix. */
  message: z.string(),
  pausedAt: z.string(),
  /** Publications waiting for the resume. */
  held: z.number().int(),
});
export type ChannelPause = z.infer<typeof channelPauseSchema>;

export const channelPauseListSchema = z.object({ pauses: z.array(channelPauseSchema) });

export const resumeChannelsRequestSchema = z.object({
  /** One channel; all of the feed's paused channels when left out. */
  channelKey: z.string().min(1).max(200).optional(),
});

export const resumeChannelsAnswerSchema = z.object({
  /** Channels resumed. */
  resumed: z.number().int(),
  /** Held publications sent again (as retry jobs). */
  requeued: z.number().int(),
});
export type ResumeChannelsAnswer = z.infer<typeof resumeChannelsAnswerSchema>;
