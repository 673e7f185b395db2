import {
  jobPublicationsQuerySchema,
  publicationPageSchema,
  submissionPublicationsQuerySchema,
  successEnvelopeSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
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

export function publicationRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter();
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
  return router;
}
