import { moderateRequestSchema, moderationOutcomeSchema, successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { AppError } from "../http/errors.ts";
import { type AppDeps, createRouter } from "../http/router.ts";
import { moderateLink } from "./service.ts";

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
    const user = requireUser(c);
    const body = c.req.valid("json");
    const feedId = body.feedId.toLowerCase();
    const right = await moderationRight(db, env, feedId, user);
    if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
    if (!right.canModerate) throw AppError.forbidden(`You are not a moderator of "${feedId}".`);
    const outcome = await db.transaction((tx) =>
      moderateLink(tx, {
        submissionId: body.submissionId,
        feedId,
        action: body.action,
        note: body.note,
        moderatorAccountId: user.nearAccountId,
        moderatorAccountIdType: "near",
        source: right.reason === "super_admin" ? "super_admin_direct" : "ui",
      }),
    );
    return ok(c, outcome, `Submission ${outcome.status}.`);
  });
  return router;
}
