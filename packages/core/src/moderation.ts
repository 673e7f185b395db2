import { z } from "zod";
import { pagedSchema, pageQuery } from "./envelope.ts";
import { tallySchema } from "./governance.ts";
import { MODERATOR_REASONS } from "./moderation-rules.ts";
import { PLATFORMS } from "./platforms.ts";
import { MODERATION_SOURCES, MODERATOR_ID_TYPES } from "./submission-rules.ts";
import { moderationActionSchema, moderationRecordSchema } from "./submissions.ts";

/** Posts one bulk decision may decide: beyond it, narrow the selection. */
export const BULK_DECISION_LIMIT = 1000;

export const canModerateSchema = z.object({
  canModerate: z.boolean(),
  reason: z.enum(MODERATOR_REASONS),
});

/**
 * POST /api/moderate. The moderator fields of the spec's body are accepted for compatibility, but the actor is
 * always the session's account.
 */
export const moderateRequestSchema = z.object({
  submissionId: z
    .string({ error: "Submission ID is required" })
    .trim()
    .min(1, "Submission ID is required")
    .max(100),
  feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
  action: moderationActionSchema,
  note: z.string().max(2000).nullish(),
  moderatorAccountId: z.string().max(200).optional(),
  moderatorAccountIdType: z.enum(MODERATOR_ID_TYPES).optional(),
  source: z.enum(MODERATION_SOURCES).optional(),
});
export type ModerateRequest = z.infer<typeof moderateRequestSchema>;

/** What POST /api/moderate answers: the link's new status, its history row and the processing request made. */
export const moderationOutcomeSchema = z.object({
  submissionId: z.string(),
  feedId: z.string(),
  /** Pending: the feed decides by a quorum, and this vote did not settle the post (see `tally`). */
  status: z.enum(["approved", "rejected", "pending"]),
  /** In a quorum feed: the votes after this one, and the approvals needed. */
  tally: tallySchema.nullable().optional(),
  /** The decision's history row; null for a vote that left the post pending. */
  moderation: moderationRecordSchema.nullable(),
  processingJobId: z.string().nullable(),
  /** Until when the approval can be undone (the feed's undo window); null when it publishes at once. */
  undoUntil: z.string().nullable(),
});
export type ModerationOutcome = z.infer<typeof moderationOutcomeSchema>;

/** POST /api/moderate/undo: take approvals back inside their undo window (one, or a bulk decision's). */
export const undoRequestSchema = z
  .object({
    feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
    submissionId: z.string().trim().min(1).max(100).optional(),
    submissionIds: z.array(z.string().trim().min(1).max(100)).min(1).max(BULK_DECISION_LIMIT).optional(),
  })
  .refine((body) => (body.submissionId === undefined) !== (body.submissionIds === undefined), {
    message: "Give either submissionId or submissionIds",
    path: ["submissionId"],
  });
export type UndoRequest = z.infer<typeof undoRequestSchema>;

export const UNDO_OUTCOMES = ["undone", "window_closed", "not_approved"] as const;
export const undoAnswerSchema = z.object({
  feedId: z.string(),
  undone: z.number().int(),
  results: z.array(z.object({ submissionId: z.string(), outcome: z.enum(UNDO_OUTCOMES) })),
});
export type UndoAnswer = z.infer<typeof undoAnswerSchema>;

/** "Select all N matching": the curation tab's search and network, as its list of pending posts applies them. */
const bulkFilterSchema = z
  .object({ q: z.string().trim().max(200).optional(), platform: z.enum(PLATFORMS).optional() })
  .strict();
export type BulkFilter = z.infer<typeof bulkFilterSchema>;

/**
 * POST /api/moderate/bulk: decide many pending posts of one feed at once, by id or by the curation tab's search
 * ("Select all N matching": every pending post of the feed the search matches, found on the server).
 */
export const bulkModerateRequestSchema = z
  .object({
    feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
    action: moderationActionSchema,
    note: z.string().max(2000).nullish(),
    submissionIds: z
      .array(z.string().trim().min(1).max(100))
      .min(1, "Select at least one post")
      .max(BULK_DECISION_LIMIT, `At most ${BULK_DECISION_LIMIT} posts per decision: narrow the selection`)
      .optional(),
    filter: bulkFilterSchema.optional(),
  })
  .refine((body) => (body.submissionIds === undefined) !== (body.filter === undefined), {
    message: "Give either submissionIds or filter",
    path: ["submissionIds"],
  });
export type BulkModerateRequest = z.infer<typeof bulkModerateRequestSchema>;

export const BULK_DECISION_OUTCOMES = [
  "decided",
  /** A quorum feed: the vote counted, the post still waits for more. */
  "voted",
  /** A quorum feed: this person had voted on the post already. */
  "already_voted",
  "already_approved",
  "already_rejected",
  "not_found",
] as const;
export type BulkDecisionOutcome = (typeof BULK_DECISION_OUTCOMES)[number];

export const bulkModerationAnswerSchema = z.object({
  feedId: z.string(),
  action: moderationActionSchema,
  /** Posts decided by this call. */
  decided: z.number().int(),
  /** Until when this call's approvals can be undone (the feed's undo window); null when they publish at once. */
  undoUntil: z.string().nullable(),
  /** One entry per post asked about, in the order asked: decided, or why not. */
  results: z.array(
    z.object({
      submissionId: z.string(),
      outcome: z.enum(BULK_DECISION_OUTCOMES),
      processingJobId: z.string().nullable(),
    }),
  ),
});
export type BulkModerationAnswer = z.infer<typeof bulkModerationAnswerSchema>;

/** Posts one background bulk run ("Select all N matching" beyond the per-call cap) may decide. */
export const BULK_RUN_LIMIT = 50_000;

export const BULK_RUN_STATES = ["queued", "running", "completed", "failed"] as const;
export type BulkRunState = (typeof BULK_RUN_STATES)[number];

/**
 * POST /api/moderate/bulk-runs: "Select all N matching" beyond the cap of one call. The matching pending posts are
 * taken when the run starts and decided by a worker in transactions of a hundred, with visible progress.
 */
export const bulkRunRequestSchema = z.object({
  feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
  action: moderationActionSchema,
  note: z.string().max(2000).nullish(),
  filter: bulkFilterSchema.default({}),
});
export type BulkRunRequest = z.infer<typeof bulkRunRequestSchema>;

/** A background bulk run and its progress (GET /api/moderate/bulk-runs/{id}). */
export const bulkRunSchema = z.object({
  id: z.string(),
  feedId: z.string(),
  action: moderationActionSchema,
  note: z.string().nullable(),
  /** The curation tab's search the run was started from (null: every pending post). */
  query: z.string().nullable(),
  /** The network the curation tab was narrowed to (null: every network). */
  platform: z.enum(PLATFORMS).nullable(),
  requestedBy: z.string(),
  state: z.enum(BULK_RUN_STATES),
  /** Posts the run took when it started. */
  total: z.number().int(),
  /** Posts this run decided. */
  decided: z.number().int(),
  /** Posts someone else decided first (reported, never decided twice). */
  alreadyDecided: z.number().int(),
  /** Posts that could not be decided (gone from the feed meanwhile). */
  failed: z.number().int(),
  /**
   * Until when the run's approvals can be undone: only when the whole run finished inside the feed's undo window
   * (every approval still held); null otherwise.
   */
  undoUntil: z.string().nullable(),
  /** The feed has an undo window, but the run finished after its first approvals' window had closed. */
  undoMissed: z.boolean(),
  /** Approvals of this run undone since (POST …/undo). */
  undone: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type BulkRun = z.infer<typeof bulkRunSchema>;

export const bulkRunListQuerySchema = z.object({
  feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
  ...pageQuery,
});
export type BulkRunListQuery = z.infer<typeof bulkRunListQuerySchema>;

export const bulkRunPageSchema = pagedSchema(bulkRunSchema);

/** POST /api/moderate/bulk-runs/{id}/undo: every approval of a run that finished inside its undo window. */
export const bulkRunUndoAnswerSchema = z.object({
  run: bulkRunSchema,
  /** Approvals returned to pending by this call. */
  undone: z.number().int(),
  /** Approvals that could not be taken back (already undone, or their window closed meanwhile). */
  notUndone: z.number().int(),
});
export type BulkRunUndoAnswer = z.infer<typeof bulkRunUndoAnswerSchema>;
