import { moderateRequestSchema, moderationOutcomeSchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { decideSubmission } from "./service.ts";

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

export function moderationRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter();
  router.openapi(moderateRoute, async (c) => {
    const outcome = await decideSubmission(db, env, requireUser(c), c.req.valid("json"));
    return ok(c, outcome, `Submission ${outcome.status}.`);
  });
  return router;
}
