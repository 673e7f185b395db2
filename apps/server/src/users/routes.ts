import { accountIdSchema, currentUserSchema, feedSummarySchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { publicUser } from "../auth/user.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { listFeedsCuratedBy, listFeedsModeratedBy, listFeedsOwnedBy } from "../feeds/service.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";

const unauthenticated = errorResponse("Not signed in (UNAUTHENTICATED)");
const feedList = (description: string) =>
  jsonResponse(successEnvelopeSchema(z.array(feedSummarySchema)), description);

const meRoute = createRoute({
  method: "get",
  path: "/users/me",
  tags: ["users"],
  summary: "The signed-in user (200) or 401",
  responses: {
    200: jsonResponse(successEnvelopeSchema(currentUserSchema), "The user"),
    401: unauthenticated,
  },
});

const userFeedsRoute = createRoute({
  method: "get",
  path: "/users/{accountId}/feeds",
  tags: ["users"],
  summary: "Feeds an account created or administers",
  request: { params: z.object({ accountId: accountIdSchema }) },
  responses: { 200: feedList("Feeds"), 400: commonErrors[400] },
});

const approvedByMeRoute = createRoute({
  method: "get",
  path: "/activity/feeds/approved-by/me",
  tags: ["activity"],
  summary: "Feeds the signed-in user moderates (Approver For)",
  responses: { 200: feedList("Feeds"), 401: unauthenticated },
});

const curatedByMeRoute = createRoute({
  method: "get",
  path: "/activity/feeds/curated-by/me",
  tags: ["activity"],
  summary: "Feeds the signed-in user has submitted to (Curator For)",
  responses: { 200: feedList("Feeds"), 401: unauthenticated },
});

export function userRoutes({ database: { db } }: AppDeps) {
  const router = createRouter();
  router.openapi(meRoute, (c) => ok(c, publicUser(requireUser(c))));
  router.openapi(userFeedsRoute, async (c) =>
    ok(c, await listFeedsOwnedBy(db, c.req.valid("param").accountId)),
  );
  router.openapi(approvedByMeRoute, async (c) => ok(c, await listFeedsModeratedBy(db, requireUser(c))));
  router.openapi(curatedByMeRoute, async (c) => ok(c, await listFeedsCuratedBy(db, requireUser(c))));
  return router;
}
