import {
  activityPageSchema,
  activityQuerySchema,
  siteStatsSchema,
  successEnvelopeSchema,
  userRanksSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { getSiteStats, getUserRanks, listUserActivity } from "./service.ts";

const userParam = idParam("userId", "NEAR account id or social handle the activity belongs to");

const listRoute = createRoute({
  method: "get",
  path: "/activity/users/{userId}",
  tags: ["activity"],
  summary: "A user's activity (submissions and decisions), filtered and paged by offset",
  request: { params: userParam, query: activityQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(activityPageSchema), "Activity"),
    400: commonErrors[400],
  },
});

const ranksRoute = createRoute({
  method: "get",
  path: "/activity/users/{userId}/ranks",
  tags: ["activity"],
  summary: "A user's curator and approver ranks (null when unranked)",
  request: { params: userParam },
  responses: {
    200: jsonResponse(successEnvelopeSchema(userRanksSchema), "Ranks"),
  },
});

const statsRoute = createRoute({
  method: "get",
  path: "/activity/stats",
  tags: ["activity"],
  summary: "Site-wide totals",
  responses: {
    200: jsonResponse(successEnvelopeSchema(siteStatsSchema), "Totals"),
  },
});

export function activityRoutes({ database: { db }, env }: AppDeps) {
  // Reads only: a write added here stays closed to API tokens until its family names a scope.
  const router = createRouter({ writes: "session" }, env);
  router.openapi(statsRoute, async (c) => ok(c, await getSiteStats(db)));
  router.openapi(ranksRoute, async (c) => ok(c, await getUserRanks(db, c.req.valid("param").userId)));
  router.openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const page = await listUserActivity(db, c.req.valid("param").userId, {
      timeRange: q.time_range,
      types: q.types,
      fromDate: q.from_date,
      toDate: q.to_date,
      limit: q.limit,
      offset: q.offset,
      sortOrder: q.sortOrder,
    });
    return ok(c, page);
  });
  return router;
}
