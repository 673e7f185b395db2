import { leaderboardEntrySchema, successEnvelopeSchema, timeRangeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { getLeaderboard } from "./service.ts";

export const MAX_LEADERBOARD_LIMIT = 1000;

const leaderboardQuerySchema = z.object({
  timeRange: timeRangeSchema.default("all"),
  feedId: z.string().trim().max(64).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "limit must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "limit must be at least 1").max(MAX_LEADERBOARD_LIMIT))
    .default(100),
});

const leaderboardRoute = createRoute({
  method: "get",
  path: "/leaderboard",
  tags: ["leaderboard"],
  summary:
    "Curators ranked by submissions, then approvals; feedSubmissions holds each curator's top 10 feeds",
  request: { query: leaderboardQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.array(leaderboardEntrySchema)), "Leaderboard"),
    400: commonErrors[400],
  },
});

export function leaderboardRoutes({ database: { db } }: AppDeps) {
  const router = createRouter();
  router.openapi(leaderboardRoute, async (c) => {
    const { timeRange, feedId, limit } = c.req.valid("query");
    return ok(c, await getLeaderboard(db, { timeRange, feedId: feedId || undefined, limit }));
  });
  return router;
}
