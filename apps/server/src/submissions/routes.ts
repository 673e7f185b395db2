import {
  pagedSchema,
  submissionListQuerySchema,
  submissionSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { getSubmission, listFeedSubmissions, listSubmissions } from "./service.ts";

const pageResponse = jsonResponse(
  successEnvelopeSchema(pagedSchema(submissionSchema)),
  "A page of submissions",
);

const listRoute = createRoute({
  method: "get",
  path: "/submissions",
  tags: ["submissions"],
  summary: "All submissions, paged (search over content, author and curator)",
  request: { query: submissionListQuerySchema },
  responses: { 200: pageResponse, 400: commonErrors[400] },
});

const feedListRoute = createRoute({
  method: "get",
  path: "/submissions/feed/{feedId}",
  tags: ["submissions"],
  summary: "Submissions of one feed with their status in that feed, paged",
  request: { params: idParam("feedId", "Feed id"), query: submissionListQuerySchema },
  responses: { 200: pageResponse, 400: commonErrors[400], 404: errorResponse("No such feed (NOT_FOUND)") },
});

const singleRoute = createRoute({
  method: "get",
  path: "/submissions/single/{tweetId}",
  tags: ["submissions"],
  summary: "One submission with its feeds and moderation history",
  request: { params: idParam("tweetId", "Id of the submitted post") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(submissionSchema), "The submission"),
    404: errorResponse("No such submission (NOT_FOUND)"),
  },
});

const byIdRoute = createRoute({
  method: "get",
  path: "/submissions/{submissionId}",
  tags: ["submissions"],
  summary: "One submission with its feeds, their statuses and its moderation history (the submission page)",
  request: { params: idParam("submissionId", "Id of the submitted post") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(submissionSchema), "The submission"),
    404: errorResponse("No such submission (NOT_FOUND)"),
  },
});

export function submissionRoutes({ database: { db }, env }: AppDeps) {
  // Reads only: a write added here stays closed to API tokens until its family names a scope.
  const router = createRouter({ writes: "session" }, env);
  router.openapi(listRoute, async (c) => ok(c, await listSubmissions(db, c.req.valid("query"))));
  router.openapi(feedListRoute, async (c) =>
    ok(c, await listFeedSubmissions(db, c.req.valid("param").feedId, c.req.valid("query"))),
  );
  router.openapi(singleRoute, async (c) => ok(c, await getSubmission(db, c.req.valid("param").tweetId)));
  router.openapi(byIdRoute, async (c) => ok(c, await getSubmission(db, c.req.valid("param").submissionId)));
  return router;
}
