import {
  channelPauseListSchema,
  jobAnswerSchema,
  jobListSchema,
  jobsQuerySchema,
  moveScheduledSendSchema,
  processedSubmissionPageSchema,
  processedSubmissionsQuerySchema,
  processingSummarySchema,
  recapRunPageSchema,
  recapRunParamsSchema,
  recapRunsQuerySchema,
  recapStatusListSchema,
  resumeChannelsAnswerSchema,
  resumeChannelsRequestSchema,
  scheduleChangeAnswerSchema,
  scheduledChannelListSchema,
  scheduledSendPageSchema,
  scheduledSendParamsSchema,
  scheduledSendsQuerySchema,
  stepListSchema,
  successEnvelopeSchema,
  tweakRequestSchema,
} from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, idParam, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import {
  changeScheduledSend,
  feedChannelPauses,
  feedScheduledChannels,
  feedScheduledSends,
  listJobSteps,
  listProcessedSubmissions,
  listSubmissionJobs,
  processingSummary,
  recapRuns,
  recapStatuses,
  reprocessJob,
  resumeChannels,
  retryFailedSteps,
  retryFromStep,
  runRecapNow,
  tweakStep,
} from "./service.ts";

const moderatorErrors = {
  400: commonErrors[400],
  401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  403: errorResponse("Not a moderator of this feed (FORBIDDEN)"),
  404: errorResponse("Unknown job, step or feed (NOT_FOUND)"),
};
const followUpErrors = {
  ...moderatorErrors,
  409: errorResponse("Nothing to retry, or a job is still running (CONFLICT)"),
};
const jobCreated = (description: string) => jsonResponse(successEnvelopeSchema(jobAnswerSchema), description);

const jobsRoute = createRoute({
  method: "get",
  path: "/processing/jobs/{submissionId}",
  tags: ["processing"],
  summary: "A submission's processing jobs in one feed, newest first (moderators of the feed)",
  request: { params: idParam("submissionId", "Submission id"), query: jobsQuerySchema },
  responses: { 200: jsonResponse(successEnvelopeSchema(jobListSchema), "The jobs"), ...moderatorErrors },
});

const stepsRoute = createRoute({
  method: "get",
  path: "/processing/jobs/{jobId}/steps",
  tags: ["processing"],
  summary: "A job's steps in order, with their input, output, config (placeholders unfilled) and error",
  request: { params: idParam("jobId", "Job id") },
  responses: { 200: jsonResponse(successEnvelopeSchema(stepListSchema), "The steps"), ...moderatorErrors },
});

const retryJobRoute = createRoute({
  method: "post",
  path: "/processing/jobs/{jobId}/retry",
  tags: ["processing"],
  summary: "Retry Failed: all failed steps of the job, in one new job linked by retryOfJobId",
  request: { params: idParam("jobId", "Job id") },
  responses: { 201: jobCreated("The new job"), ...followUpErrors },
});

const retryStepRoute = createRoute({
  method: "post",
  path: "/processing/steps/{stepId}/retry",
  tags: ["processing"],
  summary: "Retry Step: the job from this step, with its stored input, in a new job",
  request: { params: idParam("stepId", "Step id") },
  responses: { 201: jobCreated("The new job"), ...followUpErrors },
});

const reprocessRoute = createRoute({
  method: "post",
  path: "/processing/jobs/{jobId}/reprocess",
  tags: ["processing"],
  summary: "Reprocess: a new job from the feed's latest config",
  request: { params: idParam("jobId", "Job id") },
  responses: { 201: jobCreated("The new job"), ...followUpErrors },
});

const tweakRoute = createRoute({
  method: "post",
  path: "/processing/steps/{stepId}/tweak",
  tags: ["processing"],
  summary: "Tweak and Reprocess: this step with an edited input (JSON text), then the rest of its branch",
  request: {
    params: idParam("stepId", "Step id"),
    body: { content: { "application/json": { schema: tweakRequestSchema } }, required: true },
  },
  responses: { 201: jobCreated("The new job"), ...followUpErrors },
});

const processedRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/submissions",
  tags: ["processing"],
  summary: "The processing tab's rows: approved submissions with their latest job, paged",
  request: { params: idParam("feedId", "Feed id"), query: processedSubmissionsQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(processedSubmissionPageSchema), "A page"),
    ...moderatorErrors,
  },
});

const summaryRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/summary",
  tags: ["processing"],
  summary: "Failed or partly failed jobs of the last 24 hours (the feed page's badge)",
  request: { params: idParam("feedId", "Feed id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(processingSummarySchema), "Counts"),
    ...moderatorErrors,
  },
});

const pausesRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/pauses",
  tags: ["processing"],
  summary: "The feed's channels paused because they refused its credentials, with the publications they hold",
  request: { params: idParam("feedId", "Feed id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(channelPauseListSchema), "Paused channels"),
    ...moderatorErrors,
  },
});

const resumeRoute = createRoute({
  method: "post",
  path: "/processing/feeds/{feedId}/pauses/resume",
  tags: ["processing"],
  // The feed's channels are its managers' to resume, as their settings are.
  scope: "manage",
  summary: "Resume publishing to a paused channel (or all): its held publications run again (owner, admins)",
  request: {
    params: idParam("feedId", "Feed id"),
    body: { content: { "application/json": { schema: resumeChannelsRequestSchema } } },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(resumeChannelsAnswerSchema), "Resumed"),
    ...moderatorErrors,
    403: errorResponse("Not the feed's owner or admin (FORBIDDEN)"),
    409: errorResponse("Nothing is paused (CONFLICT)"),
  },
});

const scheduledChannelsRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/schedule",
  tags: ["processing"],
  summary: "The feed's scheduled channels: each one's schedule in words and how many items wait (moderators)",
  request: { params: idParam("feedId", "Feed id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(scheduledChannelListSchema), "Scheduled channels"),
    ...moderatorErrors,
  },
});

const scheduledSendsRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/schedule/sends",
  tags: ["processing"],
  summary: "What one scheduled channel publishes when, in order, a page at a time (moderators)",
  request: { params: idParam("feedId", "Feed id"), query: scheduledSendsQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(scheduledSendPageSchema), "The channel's line"),
    ...moderatorErrors,
  },
});

const scheduleChangeErrors = {
  ...moderatorErrors,
  404: errorResponse("Unknown feed or scheduled item (NOT_FOUND)"),
  409: errorResponse("The item is no longer waiting (CONFLICT)"),
};

const moveScheduledRoute = createRoute({
  method: "post",
  path: "/processing/feeds/{feedId}/schedule/sends/{sendId}/move",
  tags: ["processing"],
  summary: "Move a waiting item to a new place in its channel's line; the line keeps its times (moderators)",
  request: {
    params: scheduledSendParamsSchema,
    body: { content: { "application/json": { schema: moveScheduledSendSchema } }, required: true },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(scheduleChangeAnswerSchema), "Moved"),
    ...scheduleChangeErrors,
  },
});

const publishScheduledNowRoute = createRoute({
  method: "post",
  path: "/processing/feeds/{feedId}/schedule/sends/{sendId}/publish-now",
  tags: ["processing"],
  summary: "Publish a waiting item at once; the items behind it move up (moderators)",
  request: { params: scheduledSendParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(scheduleChangeAnswerSchema), "On its way"),
    ...scheduleChangeErrors,
  },
});

const removeScheduledRoute = createRoute({
  method: "delete",
  path: "/processing/feeds/{feedId}/schedule/sends/{sendId}",
  tags: ["processing"],
  summary: "Take a waiting item off its channel's schedule: it is not published there (moderators)",
  request: { params: scheduledSendParamsSchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(scheduleChangeAnswerSchema), "Removed"),
    ...scheduleChangeErrors,
  },
});

const recapsRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/recaps",
  tags: ["processing"],
  summary: "The feed's recaps: schedule in words, next run and what earlier runs covered (moderators)",
  request: { params: idParam("feedId", "Feed id") },
  responses: {
    200: jsonResponse(successEnvelopeSchema(recapStatusListSchema), "The recaps"),
    ...moderatorErrors,
  },
});

const recapRunsRoute = createRoute({
  method: "get",
  path: "/processing/feeds/{feedId}/recap-runs",
  tags: ["processing"],
  summary: "The feed's recap runs (jobs of kind recap and their retries), newest first, paged (moderators)",
  request: { params: idParam("feedId", "Feed id"), query: recapRunsQuerySchema },
  responses: {
    200: jsonResponse(successEnvelopeSchema(recapRunPageSchema), "A page"),
    ...moderatorErrors,
  },
});

const runRecapRoute = createRoute({
  method: "post",
  path: "/processing/feeds/{feedId}/recaps/{recapId}/run",
  tags: ["processing"],
  summary: "Run now: a recap over the approvals since its last run, as a new job (moderators)",
  request: { params: recapRunParamsSchema },
  responses: {
    201: jobCreated("The recap run"),
    ...moderatorErrors,
    404: errorResponse("Unknown feed or recap (NOT_FOUND)"),
    409: errorResponse("A run of this recap is still waiting or running (CONFLICT)"),
  },
});

export function processingRoutes({ database: { db }, env }: AppDeps) {
  const router = createRouter({ writes: "moderate" }, env);
  router.openapi(jobsRoute, async (c) => {
    const jobs = await listSubmissionJobs(
      db,
      env,
      c.get("user"),
      c.req.valid("param").submissionId,
      c.req.valid("query").feedId,
      c.req.valid("query").dryRuns,
    );
    return ok(c, { jobs });
  });
  router.openapi(stepsRoute, async (c) =>
    ok(c, { steps: await listJobSteps(db, env, c.get("user"), c.req.valid("param").jobId) }),
  );
  router.openapi(retryJobRoute, async (c) =>
    created(
      c,
      { job: await retryFailedSteps(db, env, requireUser(c), c.req.valid("param").jobId) },
      "Job retry triggered successfully.",
    ),
  );
  router.openapi(retryStepRoute, async (c) =>
    created(
      c,
      { job: await retryFromStep(db, env, requireUser(c), c.req.valid("param").stepId) },
      "Step retry triggered successfully.",
    ),
  );
  router.openapi(reprocessRoute, async (c) =>
    created(
      c,
      { job: await reprocessJob(db, env, requireUser(c), c.req.valid("param").jobId) },
      "Reprocessing job triggered successfully.",
    ),
  );
  router.openapi(tweakRoute, async (c) =>
    created(
      c,
      {
        job: await tweakStep(
          db,
          env,
          requireUser(c),
          c.req.valid("param").stepId,
          c.req.valid("json").newInput,
        ),
      },
      "Tweak and reprocess triggered successfully.",
    ),
  );
  router.openapi(processedRoute, async (c) =>
    ok(
      c,
      await listProcessedSubmissions(
        db,
        env,
        c.get("user"),
        c.req.valid("param").feedId,
        c.req.valid("query"),
      ),
    ),
  );
  router.openapi(pausesRoute, async (c) =>
    ok(c, { pauses: await feedChannelPauses(db, env, c.get("user"), c.req.valid("param").feedId) }),
  );
  router.openapi(resumeRoute, async (c) => {
    const answer = await resumeChannels(
      db,
      env,
      requireUser(c),
      c.req.valid("param").feedId,
      c.req.valid("json")?.channelKey,
    );
    return ok(c, answer, "Publishing resumed.");
  });
  router.openapi(scheduledChannelsRoute, async (c) =>
    ok(c, {
      channels: await feedScheduledChannels(db, env, c.get("user"), c.req.valid("param").feedId),
    }),
  );
  router.openapi(scheduledSendsRoute, async (c) =>
    ok(
      c,
      await feedScheduledSends(db, env, c.get("user"), c.req.valid("param").feedId, c.req.valid("query")),
    ),
  );
  router.openapi(moveScheduledRoute, async (c) => {
    const { feedId, sendId } = c.req.valid("param");
    const change = { action: "move" as const, position: c.req.valid("json").position };
    return ok(c, await changeScheduledSend(db, env, requireUser(c), feedId, sendId, change), "Moved.");
  });
  router.openapi(publishScheduledNowRoute, async (c) => {
    const { feedId, sendId } = c.req.valid("param");
    const change = { action: "publish-now" as const };
    return ok(
      c,
      await changeScheduledSend(db, env, requireUser(c), feedId, sendId, change),
      "Publishing now.",
    );
  });
  router.openapi(removeScheduledRoute, async (c) => {
    const { feedId, sendId } = c.req.valid("param");
    const change = { action: "remove" as const };
    return ok(
      c,
      await changeScheduledSend(db, env, requireUser(c), feedId, sendId, change),
      "Removed from the schedule.",
    );
  });
  router.openapi(recapsRoute, async (c) =>
    ok(c, { recaps: await recapStatuses(db, env, c.get("user"), c.req.valid("param").feedId) }),
  );
  router.openapi(recapRunsRoute, async (c) =>
    ok(c, await recapRuns(db, env, c.get("user"), c.req.valid("param").feedId, c.req.valid("query"))),
  );
  router.openapi(runRecapRoute, async (c) => {
    const { feedId, recapId } = c.req.valid("param");
    return created(
      c,
      { job: await runRecapNow(db, env, requireUser(c), feedId, recapId) },
      "Recap run started.",
    );
  });
  router.openapi(summaryRoute, async (c) =>
    ok(c, await processingSummary(db, env, c.get("user"), c.req.valid("param").feedId)),
  );
  return router;
}
