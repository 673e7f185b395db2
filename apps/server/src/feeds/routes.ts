import { feedSchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { AppError } from "../http/errors.ts";
import { type AppDeps, createRouter } from "../http/router.ts";
import { moderationRight } from "./permissions.ts";
import { getFeed, listFeeds } from "./service.ts";

const listRoute = createRoute({
  method: "get",
  path: "/feeds",
  tags: ["feeds"],
  summary: "All feeds except the hidden `all` feed",
  responses: {
    200: jsonResponse(successEnvelopeSchema(z.array(feedSchema)), "Feeds"),
    500: commonErrors[500],
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/feeds/{id}",
  tags: ["feeds"],
  summary: "One feed with its configuration",
  request: { params: idParam("id", "Feed id (the lower-case hashtag)") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(feedSchema), "The feed"),
    404: errorResponse("No such feed (NOT_FOUND)"),
  },
});

const canModerateRoute = createRoute({
  method: "get",
  path: "/feeds/{id}/can-moderate",
  tags: ["feeds"],
  summary: "Whether the signed-in user may moderate this feed (creator, admin, super admin or approver)",
  request: { params: idParam("id", "Feed id") },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(
        z.object({
          canModerate: z.boolean(),
          reason: z.enum(["creator", "admin", "super_admin", "approver", "not_moderator", "not_signed_in"]),
        }),
      ),
      "The answer and its reason",
    ),
    404: errorResponse("No such feed (NOT_FOUND)"),
  },
});

export function feedRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter();
  router.openapi(listRoute, async (c) => ok(c, await listFeeds(db)));
  router.openapi(getRoute, async (c) => ok(c, await getFeed(db, c.req.valid("param").id)));
  router.openapi(canModerateRoute, async (c) => {
    const feedId = c.req.valid("param").id.toLowerCase();
    const right = await moderationRight(db, env, feedId, c.get("user"));
    if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
    return ok(c, right);
  });
  return router;
}
