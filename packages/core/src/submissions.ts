import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./api.ts";
import { tallySchema } from "./governance.ts";
import { PLATFORMS } from "./platforms.ts";
import {
  MAX_SEARCH_LENGTH,
  MODERATION_ACTIONS,
  MODERATION_HISTORY_ACTIONS,
  MODERATION_SOURCES,
  MODERATOR_ID_TYPES,
  SORT_ORDERS,
  STATUS_FILTERS,
  SUBMISSION_STATUSES,
} from "./submission-rules.ts";

const KEPT_FOR_CLIENTS =
  "Kept so existing clients keep working; new clients show the person from the network, handle and profile fields beside it.";

/**
 * The curator as people see them, beside the stored `curatorUsername` key (`name` on X, `<platform>:<name>` on other
 * networks): their network, their handle there (no prefix, no "@") and their profile on it (null where the network
 * has none for them). All null when no curator is known.
 */
const curatorPerson = {
  curatorUsername: z
    .string()
    .nullable()
    .describe(
      `The curator's stored key: the bare handle on X, \`<network>:<handle>\` elsewhere. ${KEPT_FOR_CLIENTS}`,
    ),
  curatorNetwork: z.enum(PLATFORMS).nullable().describe("The network the curator submitted from"),
  curatorHandle: z
    .string()
    .nullable()
    .describe('The curator\'s handle on that network, without prefix or "@"'),
  curatorProfileUrl: z
    .string()
    .nullable()
    .describe(
      "The curator's profile on that network; null where it has none for them (RSS, a Telegram name)",
    ),
};

export const submissionStatusSchema = z.enum(SUBMISSION_STATUSES);
export const statusFilterSchema = z.enum(STATUS_FILTERS);
export const sortOrderSchema = z.enum(SORT_ORDERS);

const intFromQuery = (name: string) =>
  z
    .string()
    .regex(/^-?\d+$/, `${name} must be an integer`)
    .transform(Number)
    .or(z.number().int());

/** The furthest an offset may reach: far past any list, and still an exact integer once multiplied out. */
export const MAX_LIST_OFFSET = 100_000_000;

/**
 * Query of the paged submission lists; strict: a bad value is a 400, not a silent default. A page is asked by its
 * zero-based number (`page`, 0 when neither is given) or by the number of items before it (`offset`), not both.
 */
export const submissionListQuerySchema = z
  .object({
    page: intFromQuery("page").pipe(z.number().int().min(0, "page must be 0 or more")).optional(),
    offset: intFromQuery("offset")
      .pipe(
        z
          .number()
          .int()
          .min(0, "offset must be 0 or more")
          .max(MAX_LIST_OFFSET, `offset must be at most ${MAX_LIST_OFFSET}`),
      )
      .optional(),
    limit: intFromQuery("limit")
      .pipe(
        z
          .number()
          .int()
          .min(1, "limit must be at least 1")
          .max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`),
      )
      .default(DEFAULT_PAGE_SIZE),
    status: statusFilterSchema.default("all"),
    sortOrder: sortOrderSchema.default("newest"),
    q: z.string().trim().max(MAX_SEARCH_LENGTH).optional(),
    /** Only posts from one network. */
    platform: z.enum(PLATFORMS).optional(),
  })
  .superRefine((query, context) => {
    if (query.page !== undefined && query.offset !== undefined) {
      context.addIssue({ code: "custom", path: ["offset"], message: "Give page or offset, not both" });
    }
  });
export type SubmissionListQuery = z.infer<typeof submissionListQuerySchema>;

export const moderationActionSchema = z.enum(MODERATION_ACTIONS);

/**
 * One entry of a submission's moderation history: a decision, or an undo (`action: "undo"`) — who took an approval
 * back inside its undo window, how and when (`createdAt`). An undo has no record of its own: its `id` and `undoes`
 * are the approval's.
 */
export const moderationRecordSchema = z.object({
  id: z.number().int(),
  submissionId: z.string(),
  feedId: z.string(),
  moderatorAccountId: z
    .string()
    .describe(
      `The moderator's stored id: a NEAR account, or a handle key (bare on X, \`<network>:<handle>\` elsewhere). ${KEPT_FOR_CLIENTS}`,
    ),
  moderatorAccountIdType: z.enum(MODERATOR_ID_TYPES),
  moderatorNetwork: z
    .enum(PLATFORMS)
    .nullable()
    .describe("The network a moderator decided from by handle; null for a Curate (NEAR) account"),
  moderatorHandle: z
    .string()
    .describe('The moderator\'s handle on that network (no prefix, no "@"), or their NEAR account'),
  moderatorProfileUrl: z
    .string()
    .nullable()
    .describe(
      "The moderator's profile on that network; null for a NEAR account or where the network has none",
    ),
  source: z.enum(MODERATION_SOURCES),
  action: z.enum(MODERATION_HISTORY_ACTIONS),
  note: z.string().nullable(),
  /** A rejection that took back an approved, published post (POST /api/moderate/retract). */
  retraction: z.boolean().optional(),
  /** On an undo: the approval it took back. */
  undoes: z.number().int().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ModerationRecord = z.infer<typeof moderationRecordSchema>;

/** One feed a submission went to, with the status, curator and notes given for that feed. */
export const submissionFeedSchema = z.object({
  submissionId: z.string(),
  feedId: z.string(),
  feedName: z.string().nullable(),
  status: submissionStatusSchema,
  curatorId: z.string().nullable(),
  ...curatorPerson,
  curatorNotes: z.string().nullable(),
  submittedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** In a feed that decides by a quorum (k > 1): the votes of the current round and k; absent elsewhere. */
  tally: tallySchema.nullable().optional(),
});
export type SubmissionFeed = z.infer<typeof submissionFeedSchema>;

export const postMediaSchema = z.object({
  url: z.string(),
  type: z.string(),
  alt: z.string().nullable().optional(),
});

export const submissionSchema = z.object({
  /** The post's key: X's id as it always was, `<platform>:<id on that network>` for other networks. */
  tweetId: z.string(),
  platform: z.enum(PLATFORMS),
  userId: z.string(),
  username: z.string(),
  authorDisplayName: z.string().nullable(),
  authorProfileImage: z.string().nullable(),
  content: z.string(),
  /** The post's own address on its network. */
  url: z.string().nullable(),
  media: z.array(postMediaSchema).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  curatorId: z.string().nullable(),
  ...curatorPerson,
  curatorNotes: z.string().nullable(),
  curatorTweetId: z.string().nullable(),
  submittedAt: z.string(),
  status: submissionStatusSchema,
  feeds: z.array(submissionFeedSchema),
  moderationHistory: z.array(moderationRecordSchema),
});
export type Submission = z.infer<typeof submissionSchema>;
