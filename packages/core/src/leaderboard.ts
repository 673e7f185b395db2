import { z } from "zod";
import { TIME_RANGES } from "./leaderboard-rules.ts";

export const timeRangeSchema = z.enum(TIME_RANGES);

export const leaderboardEntrySchema = z.object({
  curatorId: z.string(),
  curatorUsername: z.string(),
  submissionCount: z.number().int(),
  approvalCount: z.number().int(),
  rejectionCount: z.number().int(),
  feedSubmissions: z.array(
    z.object({ feedId: z.string(), count: z.number().int(), totalInFeed: z.number().int() }),
  ),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const MAX_LEADERBOARD_LIMIT = 1000;

/** GET /api/leaderboard. */
export const leaderboardQuerySchema = z.object({
  timeRange: timeRangeSchema.default("all"),
  feedId: z.string().trim().max(64).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "limit must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "limit must be at least 1").max(MAX_LEADERBOARD_LIMIT))
    .default(100),
});
