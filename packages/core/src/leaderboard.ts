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
