import {
  canModerateSchema,
  feedConfigSchema,
  feedSchema,
  feedSummarySchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import { moderationRight } from "./permissions.ts";
import { createFeed, deleteFeed, getFeed, listFeeds, updateFeed } from "./service.ts";

const listRoute = createRoute({
  method: "get",
  path: "/feeds",
  tags: ["feeds"],
  summary: "All feeds except the hidden `all` feed",
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(z.array(feedSummarySchema)),
      "Feeds (summaries; the config only from /feeds/{id})",
    ),
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
    200: jsonResponse(successEnvelopeSchema(canModerateSchema), "The answer and its reason"),
    404: errorResponse("No such feed (NOT_FOUND)"),
  },
});

const feedBody = { body: { content: { "application/json": { schema: feedConfigSchema } } } };
const writeErrors = {
  400: commonErrors[400],
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the feed's owner or admin (FORBIDDEN)"),
  404: errorResponse("No such feed (NOT_FOUND)"),
};

const createFeedRoute = createRoute({
  method: "post",
  path: "/feeds",
  tags: ["feeds"],
  summary: "Create a feed; the signed-in user becomes its owner",
  request: feedBody,
  responses: {
    201: jsonResponse(successEnvelopeSchema(feedSchema), "Created"),
    400: commonErrors[400],
    401: writeErrors[401],
    409: errorResponse("The id is taken (CONFLICT)"),
  },
});

const updateFeedRoute = createRoute({
  method: "put",
  path: "/feeds/{id}",
  tags: ["feeds"],
  summary: "Replace a feed's configuration (owner, admins, super admins)",
  request: { params: idParam("id", "Feed id"), ...feedBody },
  responses: { 200: jsonResponse(successEnvelopeSchema(feedSchema), "Updated"), ...writeErrors },
});

const deleteFeedRoute = createRoute({
  method: "delete",
  path: "/feeds/{id}",
  tags: ["feeds"],
  summary: "Delete a feed with its submissions' links and history (owner, admins, super admins)",
  request: { params: idParam("id", "Feed id") },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(z.object({ id: z.string(), deleted: z.literal(true) })),
      "Deleted",
    ),
    ...writeErrors,
  },
});

export function feedRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter();
  router.openapi(createFeedRoute, async (c) =>
    created(
      c,
      await createFeed(db, requireUser(c), c.req.valid("json"), { feedsPerAccount: env.FEEDS_PER_ACCOUNT }),
      "Feed created.",
    ),
  );
  router.openapi(updateFeedRoute, async (c) =>
    ok(
      c,
      await updateFeed(db, env, requireUser(c), c.req.valid("param").id, c.req.valid("json")),
      "Feed updated.",
    ),
  );
  router.openapi(deleteFeedRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deleteFeed(db, env, requireUser(c), id);
    return ok(c, { id: id.toLowerCase(), deleted: true as const }, "Feed deleted.");
  });
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
