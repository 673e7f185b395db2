import {
  dryRunResultSchema,
  previewRequestSchema,
  successEnvelopeSchema,
  testBenchAnswerSchema,
  testBenchRequestSchema,
  tweakRequestSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { ok } from "../http/envelope.ts";
import { dryRunFollowUp, previewSubmission, testFeedConfig } from "./dry-run.ts";
import { reprocessFollowUp, retryStepFollowUp, tweakFollowUp } from "./service.ts";

const errors = {
  400: commonErrors[400],
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not a moderator (or, for a config test, an owner or admin) of this feed (FORBIDDEN)"),
  404: errorResponse("Unknown feed, submission, job or step (NOT_FOUND)"),
  409: errorResponse("Nothing to replay (CONFLICT)"),
  429: errorResponse("This hour's dry runs are used up (RATE_LIMITED)"),
};
const dryRunAnswer = jsonResponse(
  successEnvelopeSchema(dryRunResultSchema),
  "The dry run: its job, steps and channels",
);

const previewRoute = createRoute({
  method: "post",
  path: "/processing/preview",
  tags: ["processing"],
  summary:
    "Preview: what each of the feed's channels would publish if the post were approved now (a dry run)",
  request: { body: { content: { "application/json": { schema: previewRequestSchema } }, required: true } },
  responses: { 200: dryRunAnswer, ...errors },
});

const testBenchRoute = createRoute({
  method: "post",
  path: "/feeds/{feedId}/config/test",
  tags: ["feeds"],
  // Trying a config is part of editing it.
  scope: "manage",
  summary: "Test this config: an unsaved config as dry runs against the feed's latest approved submissions",
  request: {
    params: idParam("feedId", "Feed id"),
    body: { content: { "application/json": { schema: testBenchRequestSchema } }, required: true },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(testBenchAnswerSchema), "Per submission, each channel's output"),
    ...errors,
  },
});

const reprocessDryRoute = createRoute({
  method: "post",
  path: "/processing/jobs/{jobId}/reprocess/dry-run",
  tags: ["processing"],
  summary: "Reprocess as a dry run first: the latest config rendered, nothing sent",
  request: { params: idParam("jobId", "Job id") },
  responses: { 200: dryRunAnswer, ...errors },
});

const retryStepDryRoute = createRoute({
  method: "post",
  path: "/processing/steps/{stepId}/retry/dry-run",
  tags: ["processing"],
  summary: "Retry Step as a dry run first: the job from this step rendered, nothing sent",
  request: { params: idParam("stepId", "Step id") },
  responses: { 200: dryRunAnswer, ...errors },
});

const tweakDryRoute = createRoute({
  method: "post",
  path: "/processing/steps/{stepId}/tweak/dry-run",
  tags: ["processing"],
  summary: "Tweak and Reprocess as a dry run first: the edited input rendered, nothing sent",
  request: {
    params: idParam("stepId", "Step id"),
    body: { content: { "application/json": { schema: tweakRequestSchema } }, required: true },
  },
  responses: { 200: dryRunAnswer, ...errors },
});

export function dryRunRoutes({ database: { db }, env, dryRuns }: AppDeps) {
  const router = createRouter({ writes: "moderate" }, env);
  router.openapi(previewRoute, async (c) =>
    ok(c, await previewSubmission(dryRuns, db, env, requireUser(c), c.req.valid("json"))),
  );
  router.openapi(testBenchRoute, async (c) =>
    ok(
      c,
      await testFeedConfig(
        dryRuns,
        db,
        env,
        requireUser(c),
        c.req.valid("param").feedId,
        c.req.valid("json"),
      ),
    ),
  );
  router.openapi(reprocessDryRoute, async (c) => {
    const user = requireUser(c);
    const followUp = await reprocessFollowUp(db, env, user, c.req.valid("param").jobId);
    return ok(c, await dryRunFollowUp(dryRuns, db, env, user, followUp.job, followUp.kind, followUp.plan));
  });
  router.openapi(retryStepDryRoute, async (c) => {
    const user = requireUser(c);
    const followUp = await retryStepFollowUp(db, env, user, c.req.valid("param").stepId);
    return ok(c, await dryRunFollowUp(dryRuns, db, env, user, followUp.job, followUp.kind, followUp.plan));
  });
  router.openapi(tweakDryRoute, async (c) => {
    const user = requireUser(c);
    const { stepId } = c.req.valid("param");
    const followUp = await tweakFollowUp(db, env, user, stepId, c.req.valid("json").newInput);
    return ok(c, await dryRunFollowUp(dryRuns, db, env, user, followUp.job, followUp.kind, followUp.plan));
  });
  return router;
}
