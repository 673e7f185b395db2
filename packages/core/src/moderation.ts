import { z } from "zod";
import { MODERATOR_REASONS } from "./moderation-rules.ts";
import { MODERATION_SOURCES, MODERATOR_ID_TYPES } from "./submission-rules.ts";
import { moderationActionSchema, moderationRecordSchema } from "./submissions.ts";

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
  status: z.enum(["approved", "rejected"]),
  moderation: moderationRecordSchema,
  processingJobId: z.string().nullable(),
});
export type ModerationOutcome = z.infer<typeof moderationOutcomeSchema>;
