import {
  BULK_DECISION_LIMIT,
  BULK_RUN_LIMIT,
  bulkModerateRequestSchema,
  bulkModerationAnswerSchema,
  bulkRunListQuerySchema,
  bulkRunPageSchema,
  bulkRunRequestSchema,
  bulkRunSchema,
  bulkRunUndoAnswerSchema,
  moderateRequestSchema,
  moderationOutcomeSchema,
  retractAnswerSchema,
  retractRequestSchema,
  successEnvelopeSchema,
  undoAnswerSchema,
  undoRequestSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { accepted, ok } from "../http/envelope.ts";
import { getBulkRun, listBulkRuns, startBulkRun, undoBulkRun } from "./bulk-runs.ts";
import { retractSubmission } from "./retraction.ts";
import { decideInBulk, decideSubmission, undoDecisions } from "./service.ts";

const moderateRoute = createRoute({
  method: "post",
  path: "/moderate",
  tags: ["moderation"],
  summary: "Approve or reject a pending submission in one feed",
  request: { body: { content: { "application/json": { schema: moderateRequestSchema } } } },
  responses: {
    200: jsonResponse(successEnvelopeSchema(moderationOutcomeSchema), "Decided"),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
    404: errorResponse("Unknown submission, feed or link (NOT_FOUND)"),
    409: errorResponse("Already decided in this feed (CONFLICT)"),
  },
});

const bulkRoute = createRoute({
  method: "post",
  path: "/moderate/bulk",
  tags: ["moderation"],
  summary: `Approve or reject many pending posts of one feed (at most ${BULK_DECISION_LIMIT}), by id or by search`,
  request: { body: { content: { "application/json": { schema: bulkModerateRequestSchema } } } },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(bulkModerationAnswerSchema),
      "Per post: decided, or why not (already_approved, already_rejected, not_found)",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
    404: errorResponse("Unknown feed (NOT_FOUND)"),
  },
});

const undoRoute = createRoute({
  method: "post",
  path: "/moderate/undo",
  tags: ["moderation"],
  summary: "Take approvals back inside the feed's undo window: pending again, their jobs cancelled",
  request: { body: { content: { "application/json": { schema: undoRequestSchema } } } },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(undoAnswerSchema),
      "Per post: undone, window_closed or not_approved",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
    404: errorResponse("Unknown feed (NOT_FOUND)"),
    409: errorResponse("The one post asked about cannot be undone any more (CONFLICT)"),
  },
});

const moderatorErrors = {
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
};

const startBulkRunRoute = createRoute({
  method: "post",
  path: "/moderate/bulk-runs",
  tags: ["moderation"],
  summary: `Decide every pending post of a feed the search matches (up to ${BULK_RUN_LIMIT}) in the background`,
  request: { body: { content: { "application/json": { schema: bulkRunRequestSchema } } } },
  responses: {
    202: jsonResponse(successEnvelopeSchema(bulkRunSchema), "Started: follow its progress at its address"),
    400: commonErrors[400],
    ...moderatorErrors,
    404: errorResponse("Unknown feed (NOT_FOUND)"),
    409: errorResponse("A bulk decision is already running in this feed (CONFLICT)"),
  },
});

const listBulkRunsRoute = createRoute({
  method: "get",
  path: "/moderate/bulk-runs",
  tags: ["moderation"],
  summary: "A feed's background bulk decisions, newest first",
  request: { query: bulkRunListQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(bulkRunPageSchema), "A page of runs"),
    400: commonErrors[400],
    ...moderatorErrors,
    404: errorResponse("Unknown feed (NOT_FOUND)"),
  },
});

const getBulkRunRoute = createRoute({
  method: "get",
  path: "/moderate/bulk-runs/{id}",
  tags: ["moderation"],
  summary: "A background bulk decision's progress: decided, already decided, failed, state",
  request: { params: idParam("id", "Bulk run id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(bulkRunSchema), "The run"),
    ...moderatorErrors,
    404: errorResponse("Unknown run (NOT_FOUND)"),
  },
});

const undoBulkRunRoute = createRoute({
  method: "post",
  path: "/moderate/bulk-runs/{id}/undo",
  tags: ["moderation"],
  summary: "Take back every approval of a bulk run that finished inside the feed's undo window",
  request: { params: idParam("id", "Bulk run id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(bulkRunUndoAnswerSchema), "Undone"),
    ...moderatorErrors,
    404: errorResponse("Unknown run (NOT_FOUND)"),
    409: errorResponse("Not undoable: still running, not approvals, or past the undo window (CONFLICT)"),
  },
});

const retractRoute = createRoute({
  method: "post",
  path: "/moderate/retract",
  tags: ["moderation"],
  summary:
    "Retract an approved post: it becomes rejected, and a retraction job removes its publications where the channel allows",
  request: { body: { content: { "application/json": { schema: retractRequestSchema } } } },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(retractAnswerSchema),
      "Retracted; the job removing its publications",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
    404: errorResponse("Unknown feed, or the post is not in it (NOT_FOUND)"),
    409: errorResponse("Not approved in this feed, or a job for it is running (CONFLICT)"),
  },
});

export function moderationRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "moderate" }, env);
  router.openapi(moderateRoute, async (c) => {
    const outcome = await decideSubmission(db, env, requireUser(c), c.req.valid("json"));
    return ok(c, outcome, `Submission ${outcome.status}.`);
  });
  router.openapi(bulkRoute, async (c) => {
    const answer = await decideInBulk(db, env, requireUser(c), c.req.valid("json"));
    const verb = answer.action === "approve" ? "approved" : "rejected";
    return ok(c, answer, `${answer.decided} ${answer.decided === 1 ? "post" : "posts"} ${verb}.`);
  });
  router.openapi(retractRoute, async (c) => {
    const answer = await retractSubmission(db, env, requireUser(c), c.req.valid("json"));
    return ok(
      c,
      answer,
      answer.publications
        ? `Submission retracted; removing ${answer.publications} ${answer.publications === 1 ? "publication" : "publications"}.`
        : "Submission retracted; nothing had been published yet.",
    );
  });
  router.openapi(undoRoute, async (c) => {
    const answer = await undoDecisions(db, env, requireUser(c), c.req.valid("json"));
    return ok(c, answer, `${answer.undone} ${answer.undone === 1 ? "approval" : "approvals"} undone.`);
  });
  router.openapi(startBulkRunRoute, async (c) => {
    const run = await startBulkRun(db, env, requireUser(c), c.req.valid("json"));
    return accepted(c, run, `Deciding ${run.total} ${run.total === 1 ? "post" : "posts"} in the background.`);
  });
  router.openapi(listBulkRunsRoute, async (c) =>
    ok(c, await listBulkRuns(db, env, requireUser(c), c.req.valid("query"))),
  );
  router.openapi(getBulkRunRoute, async (c) =>
    ok(c, await getBulkRun(db, env, requireUser(c), c.req.valid("param").id)),
  );
  router.openapi(undoBulkRunRoute, async (c) => {
    const answer = await undoBulkRun(db, env, requireUser(c), c.req.valid("param").id);
    return ok(c, answer, `${answer.undone} ${answer.undone === 1 ? "approval" : "approvals"} undone.`);
  });
  return router;
}
