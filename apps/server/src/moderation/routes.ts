import {
  MODERATION_SOURCES,
  MODERATOR_ID_TYPES,
  moderationActionSchema,
  moderationRecordSchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { AppError } from "../http/errors.ts";
import { type AppDeps, createRouter } from "../http/router.ts";
import { moderateLink } from "./service.ts";

/** The spec's body; moderator fields are accepted for compatibility but the actor is always the session's account. */
const moderateBodySchema = z.object({
  submissionId: z
    .string({ error: "Submission ID is required" })
    .trim()
    .min(1, "Submission ID is required")
    .max(100),
  feedId: z.string({ error: "Feed ID is required" }).trim().min(1, "Feed ID is required").max(64),
  action: moderationActionSchema,
  note: z.string().max(2000).nullish(),
  moderatorAccountId: z.string().optional(),
  moderatorAccountIdType: z.enum(MODERATOR_ID_TYPES).optional(),
  source: z.enum(MODERATION_SOURCES).optional(),
});

const moderateRoute = createRoute({
  method: "post",
  path: "/moderate",
  tags: ["moderation"],
  summary: "Approve or reject a pending submission in one feed",
  request: { body: { content: { "application/json": { schema: moderateBodySchema } } } },
  responses: {
    200: jsonResponse(
      successEnvelopeSchema(
        z.object({
          submissionId: z.string(),
          feedId: z.string(),
          status: z.enum(["approved", "rejected"]),
          moderation: moderationRecordSchema,
          processingJobId: z.string().nullable(),
        }),
      ),
      "Decided",
    ),
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
