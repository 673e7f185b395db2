import { z } from "zod";
import { TIME_RANGES } from "./leaderboard-rules.ts";
import { curatorReputationSchema, leaderboardSortSchema } from "./reputation.ts";

export const timeRangeSchema = z.enum(TIME_RANGES);

export const leaderboardEntrySchema = z.object({
  /** 1-based position in this answer's order (submissions, then approvals, then name). */
  rank: z.number().int(),
  curatorId: z.string(),
  curatorUsername: z.string(),
  /**
   * The statistics keys counted in this entry (`handleOnPlatform`), strongest first: one handle, or every handle
   * of a Curate account that linked several, whose counts are summed. The server always sends it; it is optional
   * so that entries written before accounts merged (the web's fixtures) still describe a valid entry.
   */
  handles: z.array(z.string()).optional(),
  submissionCount: z.number().int(),
  approvalCount: z.number().int(),
  rejectionCount: z.number().int(),
  feedSubmissions: z.array(
    z.object({ feedId: z.string(), count: z.number().int(), totalInFeed: z.number().int() }),
  ),
  /** The Curate account (NEAR account id) whose linked handles this entry counts, or null for an unlinked handle. */
  userId: z.string().nullable(),
  /** The account's name when it has one, else the handle as the app shows it (`@name`). */
  displayName: z.string(),
  /** The account's profile image, an upload of this server (its path), or null. */
  avatarUrl: z.string().nullable(),
  /** Curator points: the submissions counted in this answer's scope, the feed's when filtered. */
  score: z.number().int(),
  /**
   * Reputation from outcomes in the answer's scope (all-time; decision 0030). The server always sends it; optional
   * so that entries written before it existed (the web's fixtures) still describe a valid entry.
   */
  reputation: curatorReputationSchema.optional(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** As every list: at most 100 rows in one answer. */
export const MAX_LEADERBOARD_LIMIT = 100;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_LEADERBOARD_LIMIT}`;

/** GET /api/leaderboard. */
export const leaderboardQuerySchema = z.object({
  timeRange: timeRangeSchema.default("all"),
  /** `score` ranks by the reputation score, all-time only (a score over a week would rest on a handful of votes). */
  sort: leaderboardSortSchema.default("submissions"),
  feedId: z.string().trim().max(64).optional(),
  // One message whatever is wrong with the limit (not a number, a fraction, 0, or too many).
  limit: z
    .string()
    .regex(/^\d+$/, LIMIT_MESSAGE)
    .transform(Number)
    .pipe(z.number().int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MAX_LEADERBOARD_LIMIT, LIMIT_MESSAGE))
    .default(MAX_LEADERBOARD_LIMIT),
});
