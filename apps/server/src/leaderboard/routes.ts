import { leaderboardEntrySchema, leaderboardQuerySchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { getLeaderboard } from "./service.ts";

const leaderboardRoute = createRoute({
  method: "get",
  path: "/leaderboard",
  tags: ["leaderboard"],
  summary:
    "Curators ranked by submissions, then approvals (or, with sort=score, all-time by reputation score); feedSubmissions holds each curator's top 10 feeds",
  request: { query: leaderboardQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.array(leaderboardEntrySchema)), "Leaderboard"),
    400: commonErrors[400],
    404: errorResponse("No such feed (NOT_FOUND); `all` is not a feed"),
  },
});

export function leaderboardRoutes({ database: { db }, env }: AppDeps) {
  // Reads only: a write added here stays closed to API tokens until its family names a scope.
  const router = createRouter({ writes: "session" }, env);
  router.openapi(leaderboardRoute, async (c) => {
    const { timeRange, feedId, limit, sort } = c.req.valid("query");
    return ok(c, await getLeaderboard(db, { timeRange, feedId: feedId || undefined, limit, sort }));
  });
  return router;
}
