import { z } from "zod";
import { pageQuery, paginationSchema } from "./envelope.ts";

/** One person's vote on a post in a quorum feed: who (their handle or account, as shown) and which way. */
export const voteSchema = z.object({
  voter: z.string(),
  action: z.enum(["approve", "reject"]),
});

/** Where a post's votes stand in one feed: the votes cast in the current round, and the approvals needed. */
export const tallySchema = z.object({
  votes: z.array(voteSchema),
  /** k: the feed's approvals needed now. */
  required: z.number().int(),
  /**
   * An approved post whose publishing still waits out the feed's undo window: until when any approver who voted
   * may undo it (ISO). Null or absent otherwise.
   */
  undoUntil: z.string().nullable().optional(),
});
export type Tally = z.infer<typeof tallySchema>;

/** A curator's standing in one feed under its trust policy (GET /api/trust). */
export const curatorTrustSchema = z.object({
  feedId: z.string(),
  feedName: z.string().nullable(),
  /** The curator as shown: their Curate account, or their handle. */
  curator: z.string(),
  account: z.string().nullable(),
  trusted: z.boolean(),
  pinned: z.enum(["trusted", "untrusted"]).nullable(),
  approved: z.number().int(),
  decided: z.number().int(),
  /** "12 of 13 approved in the last 30 days", or the pin. */
  explanation: z.string(),
  /** When they were last promoted or demoted (or first evaluated). */
  changedAt: z.string(),
  evaluatedAt: z.string(),
});
export type CuratorTrust = z.infer<typeof curatorTrustSchema>;

/**
 * Approver rights offered to a trusted curator over the policy's higher bar (`trust.offerApprover`), which the
 * feed's owners confirm or decline; nothing changes until they confirm.
 */
export const approverOfferSchema = z.object({
  feedId: z.string(),
  /** `near:<account>` or `handle:<curator key>`: the person, as the confirm and decline calls name them. */
  personKey: z.string(),
  /** The curator as shown: their Curate account, or their handle. */
  curator: z.string(),
  account: z.string().nullable(),
  status: z.enum(["offered", "confirmed", "declined"]),
  /** Their record when offered: "12 of 13 approved in the last 30 days". */
  explanation: z.string(),
  offeredAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type ApproverOffer = z.infer<typeof approverOfferSchema>;

export const approverOfferListSchema = z.object({ items: z.array(approverOfferSchema) });

export const approverOfferParamsSchema = z.object({
  feedId: z.string().min(1).max(100),
  personKey: z.string().min(1).max(300),
});

/** GET /api/trust: one feed's curators, or one curator's feeds (an account or a handle). */
export const trustQuerySchema = z
  .object({
    feedId: z.string().trim().toLowerCase().min(1).max(64).optional(),
    curator: z.string().trim().min(1).max(200).optional(),
    trusted: z.enum(["true", "false"]).optional(),
    ...pageQuery,
  })
  .refine((query) => query.feedId !== undefined || query.curator !== undefined, {
    message: "Give feedId or curator",
    path: ["feedId"],
  });
export type TrustQuery = z.infer<typeof trustQuerySchema>;

export const trustPageSchema = z.object({
  items: z.array(curatorTrustSchema),
  pagination: paginationSchema,
});
export type TrustPage = z.infer<typeof trustPageSchema>;
