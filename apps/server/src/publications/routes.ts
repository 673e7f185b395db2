import {
  jobAnswerSchema,
  jobPublicationsQuerySchema,
  publicationPageSchema,
  publishAgainRequestSchema,
  retractCopyAnswerSchema,
  submissionPublicationsQuerySchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import { publishAgain, retractOlderCopy } from "./copies.ts";
import { listJobPublications, listSubmissionPublications } from "./service.ts";

const ledgerErrors = {
  400: commonErrors[400],
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
  404: errorResponse("Unknown submission, job or feed (NOT_FOUND)"),
};
const page = jsonResponse(
  successEnvelopeSchema(publicationPageSchema),
  "A page of ledger entries, newest first",
);

const submissionLedgerRoute = createRoute({
  method: "get",
  path: "/submissions/{submissionId}/publications",
  tags: ["publications"],
  summary:
    "Where a submission was published (the publish ledger): one feed's entries, or those of every feed of it you moderate (403 if none)",
  request: { params: idParam("submissionId", "Submission id"), query: submissionPublicationsQuerySchema },
  responses: { 200: page, ...ledgerErrors },
});

const jobLedgerRoute = createRoute({
  method: "get",
  path: "/processing/jobs/{jobId}/publications",
  tags: ["publications"],
  summary: "What a job published, or what a retraction job took back (moderators of the feed)",
  request: { params: idParam("jobId", "Job id"), query: jobPublicationsQuerySchema },
  responses: { 200: page, ...ledgerErrors },
});

const publishAgainRoute = createRoute({
  method: "post",
  path: "/publications/{publicationId}/publish-again",
  tags: ["publications"],
  summary:
    "Publish again as a new post: a second copy of this entry's channel, its own ledger entry (moderators, confirmed, limited per hour)",
  request: {
    params: idParam("publicationId", "Publication (ledger entry) id"),
    body: { content: { "application/json": { schema: publishAgainRequestSchema } }, required: true },
  },
  responses: {
    201: jsonResponse(successEnvelopeSchema(jobAnswerSchema), "The republish job"),
    ...ledgerErrors,
    404: errorResponse("Unknown publication or feed (NOT_FOUND)"),
    409: errorResponse("The post is no longer approved, or a job for it is still running (CONFLICT)"),
    429: errorResponse("Too many posts published again this hour (RATE_LIMITED)"),
  },
});

const retractCopyRoute = createRoute({
  method: "post",
  path: "/publications/{publicationId}/retract",
  tags: ["publications"],
  summary:
    "Retract an older copy still published beside its channel's live one; the post stays approved (moderators)",
  request: { params: idParam("publicationId", "Publication (ledger entry) id") },
  responses: {
    201: jsonResponse(successEnvelopeSchema(retractCopyAnswerSchema), "The retraction job"),
    ...ledgerErrors,
    404: errorResponse("Unknown publication or feed (NOT_FOUND)"),
    409: errorResponse("Not an older copy still published, or a job for the post is running (CONFLICT)"),
  },
});

export function publicationRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "moderate" }, env);
  router.openapi(submissionLedgerRoute, async (c) =>
    ok(
      c,
      await listSubmissionPublications(
        db,
        env,
        c.get("user"),
        c.req.valid("param").submissionId,
        c.req.valid("query"),
      ),
    ),
  );
  router.openapi(jobLedgerRoute, async (c) =>
    ok(
      c,
      await listJobPublications(db, env, c.get("user"), c.req.valid("param").jobId, c.req.valid("query")),
    ),
  );
  router.openapi(publishAgainRoute, async (c) =>
    created(
      c,
      { job: await publishAgain(db, env, requireUser(c), c.req.valid("param").publicationId) },
      "Publishing again as a new post.",
    ),
  );
  router.openapi(retractCopyRoute, async (c) =>
    created(
      c,
      await retractOlderCopy(db, env, requireUser(c), c.req.valid("param").publicationId),
      "Retracting the older copy.",
    ),
  );
  return router;
}
