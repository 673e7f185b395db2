import {
  canModerateSchema,
  feedConfigSchema,
  feedSaveAnswerSchema,
  feedSchema,
  feedSummarySchema,
  feedUpdateHeadersSchema,
  feedVersionDetailSchema,
  feedVersionListQuerySchema,
  feedVersionPageSchema,
  feedVersionParamsSchema,
  replannedMessage,
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
import {
  createFeed,
  deleteFeed,
  destinationLinks,
  getFeed,
  listFeeds,
  restoreFeedVersion,
  updateFeed,
} from "./service.ts";
import { getFeedVersion, listFeedVersions } from "./versions.ts";

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
    403: errorResponse(
      "The account owns as many feeds as one account may create here (FEEDS_PER_ACCOUNT; FORBIDDEN)",
    ),
    409: errorResponse("The id is taken (CONFLICT)"),
  },
});

const updateFeedRoute = createRoute({
  method: "put",
  path: "/feeds/{id}",
  tags: ["feeds"],
  summary: "Replace a feed's configuration (owner, admins, super admins)",
  request: { params: idParam("id", "Feed id"), headers: feedUpdateHeadersSchema, ...feedBody },
  responses: {
    200: jsonResponse(successEnvelopeSchema(feedSaveAnswerSchema), "Updated"),
    ...writeErrors,
    409: errorResponse("Changed since the If-Match updatedAt was read (CONFLICT)"),
  },
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

const readErrors = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not the feed's owner or admin (FORBIDDEN)"),
  404: errorResponse("No such feed or version (NOT_FOUND)"),
};

const listVersionsRoute = createRoute({
  method: "get",
  path: "/feeds/{id}/versions",
  tags: ["feeds"],
  summary: "A feed's saved config versions, newest first, each with its diff (owner, admins, super admins)",
  request: { params: idParam("id", "Feed id"), query: feedVersionListQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(feedVersionPageSchema), "A page of versions"),
    400: commonErrors[400],
    ...readErrors,
  },
});

const getVersionRoute = createRoute({
  method: "get",
  path: "/feeds/{id}/versions/{n}",
  tags: ["feeds"],
  summary: "One saved version of a feed's config (owner, admins, super admins)",
  request: { params: feedVersionParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(feedVersionDetailSchema), "The version"),
    400: commonErrors[400],
    ...readErrors,
  },
});

const restoreVersionRoute = createRoute({
  method: "post",
  path: "/feeds/{id}/versions/{n}/restore",
  tags: ["feeds"],
  summary: "Save an earlier version's config again, as a new version (the checks and permission of a save)",
  request: { params: feedVersionParamsSchema },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(feedSaveAnswerSchema),
      "Restored (a save: the scheduled items it re-planned are counted, as for PUT)",
    ),
    400: commonErrors[400],
    ...readErrors,
  },
});

export function feedRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "manage" }, env);
  router.openapi(createFeedRoute, async (c) =>
    created(
      c,
      await createFeed(db, requireUser(c), c.req.valid("json"), { feedsPerAccount: env.FEEDS_PER_ACCOUNT }),
      "Feed created.",
    ),
  );
  router.openapi(updateFeedRoute, async (c) => {
    const saved = await updateFeed(db, env, requireUser(c), c.req.valid("param").id, c.req.valid("json"), {
      expectedUpdatedAt: c.req.valid("header")["if-match"],
    });
    const replanned = replannedMessage(saved.scheduleReplanned);
    return ok(c, saved, replanned ? `Feed updated. ${replanned}` : "Feed updated.");
  });
  router.openapi(deleteFeedRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deleteFeed(db, env, requireUser(c), id);
    return ok(c, { id: id.toLowerCase(), deleted: true as const }, "Feed deleted.");
  });
  router.openapi(listVersionsRoute, async (c) =>
    ok(c, await listFeedVersions(db, env, requireUser(c), c.req.valid("param").id, c.req.valid("query"))),
  );
  router.openapi(getVersionRoute, async (c) => {
    const { id, n } = c.req.valid("param");
    return ok(c, await getFeedVersion(db, env, requireUser(c), id, n));
  });
  router.openapi(restoreVersionRoute, async (c) => {
    const { id, n } = c.req.valid("param");
    const saved = await restoreFeedVersion(db, env, requireUser(c), id, n);
    const replanned = replannedMessage(saved.scheduleReplanned);
    return ok(c, saved, replanned ? `Version ${n} restored. ${replanned}` : `Version ${n} restored.`);
  });
  router.openapi(listRoute, async (c) => ok(c, await listFeeds(db, destinationLinks(env))));
  router.openapi(getRoute, async (c) => {
    const feed = await getFeed(db, env, c.get("user"), c.req.valid("param").id);
    // Only its owners read a quarantined feed: their answer must never be kept for the next visitor.
    if (feed.quarantine) c.header("Cache-Control", "private, no-store");
    return ok(c, feed);
  });
  router.openapi(canModerateRoute, async (c) => {
    const feedId = c.req.valid("param").id.toLowerCase();
    const right = await moderationRight(db, env, feedId, c.get("user"));
    if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
    return ok(c, right);
  });
  return router;
}
