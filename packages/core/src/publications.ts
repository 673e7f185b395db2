import { z } from "zod";
import { pageQuery, paginationSchema } from "./envelope.ts";
import { moderationRecordSchema } from "./submissions.ts";

/**
 * The publish ledger: one entry per successful send of a submission to a feed's channel. `published` while it is
 * out there; `retracted` once a retraction removed it; `cannot_retract` when the channel cannot take it back (a
 * post on chain), with the reason.
 */
export const PUBLICATION_STATUSES = ["published", "retracted", "cannot_retract"] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];

/** Where a send went, as the channel answered: a message, page or row id, a transaction hash, a URL. */
export const publicationReferenceSchema = z.object({
  kind: z.string(),
  id: z.string().nullable(),
  url: z.string().nullable(),
});
export type PublicationReference = z.infer<typeof publicationReferenceSchema>;

export const publicationSchema = z.object({
  id: z.string(),
  submissionId: z.string().nullable(),
  feedId: z.string(),
  /** The distributor plugin (`@curate/telegram`) and the branch of the feed's stream it was. */
  pluginName: z.string(),
  branch: z.number().int(),
  /**
   * The branch's stable identity (plugin and target, `branchKeys`): re-runs edit the newest entry still published
   * under it.
   */
  branchKey: z.string(),
  /**
   * Set on an older copy still published beside a newer one of the same branch (a duplicate, or the first post
   * after "publish again"): the id of the newer, live entry, which re-runs edit. Null for the live entry itself and
   * for entries no longer published.
   */
  supersededBy: z.string().nullable(),
  /** A readable name of the channel ("Telegram"). */
  channel: z.string().nullable(),
  reference: publicationReferenceSchema,
  status: z.enum(PUBLICATION_STATUSES),
  /** The job and step that sent it. */
  jobId: z.string(),
  stepId: z.string(),
  publishedAt: z.string(),
  retractedAt: z.string().nullable(),
  /** The latest retraction job that handled it. */
  retractionJobId: z.string().nullable(),
  /** Why the channel cannot take it back, or the last retraction's error. */
  retractionNote: z.string().nullable(),
});
export type Publication = z.infer<typeof publicationSchema>;

/** GET /api/submissions/{id}/publications: one feed's entries, or those of every feed the reader moderates. */
export const submissionPublicationsQuerySchema = z.object({
  ...pageQuery,
  feedId: z.string().trim().min(1, "Feed ID is required").max(64).optional(),
});

/** GET /api/processing/jobs/{jobId}/publications: what a job published, or what a retraction job took back. */
export const jobPublicationsQuerySchema = z.object(pageQuery);

export const publicationPageSchema = z.object({
  items: z.array(publicationSchema),
  pagination: paginationSchema,
});

/** POST /api/moderate/retract: take an approved post back; the actor is the session's account. */
export const retractRequestSchema = z.object({
  submissionId: z
    .string({ error: "Submission ID is required" })
    .trim()
    .min(1, "Submission ID is required")
    .max(100),
  feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
  note: z.string().max(2000, "The note is too long (at most 2000 characters)").nullish(),
});
export type RetractRequest = z.infer<typeof retractRequestSchema>;

export const retractAnswerSchema = z.object({
  submissionId: z.string(),
  feedId: z.string(),
  status: z.literal("rejected"),
  moderation: moderationRecordSchema,
  /** The job removing the publications, or null when nothing had been published. */
  retractionJobId: z.string().nullable(),
  /** Publications the job will try to remove. */
  publications: z.number().int(),
  /** Jobs that had not started publishing yet and were cancelled. */
  cancelledJobs: z.number().int(),
});
export type RetractAnswer = z.infer<typeof retractAnswerSchema>;

/**
 * POST /api/publications/{publicationId}/publish-again: a second copy of this entry's branch as a new post (its own
 * ledger entry), for the feed's moderators. `confirm` must be true: nothing posts a second copy by accident.
 */
export const publishAgainRequestSchema = z.object({
  confirm: z.literal(true, { error: "Confirm that a second copy should be posted (confirm: true)." }),
});
export type PublishAgainRequest = z.infer<typeof publishAgainRequestSchema>;

/** POST /api/publications/{publicationId}/retract: takes back one older copy; the post stays approved. */
export const retractCopyAnswerSchema = z.object({
  publicationId: z.string(),
  retractionJobId: z.string(),
});
export type RetractCopyAnswer = z.infer<typeof retractCopyAnswerSchema>;
