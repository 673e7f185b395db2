import {
  successEnvelopeSchema,
  telegramUpdateSchema,
  telegramWebhookResultSchema,
  testPostBatchRequestSchema,
  testPostBatchSchema,
  testPostRequestSchema,
  testPostSchema,
} from "@curate/core";
import { createRoute, z } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { AppError } from "../errors.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { created, ok } from "../http/envelope.ts";
import { createTestPost, createTestPosts, type Intake } from "./runtime.ts";
import { isTelegramWebhookSecret } from "./telegram.ts";

const testPostRoute = createRoute({
  method: "post",
  path: "/test/tweets",
  tags: ["test"],
  summary: "Create a test post and run intake on it at once (development and test only)",
  request: { body: { content: { "application/json": { schema: testPostRequestSchema } } } },
  responses: {
    201: jsonResponse(successEnvelopeSchema(testPostSchema), "The post, and what intake made of it"),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  },
});

const testPostBatchRoute = createRoute({
  method: "post",
  path: "/test/tweets/batch",
  tags: ["test"],
  summary: "Create test posts in order and run one intake pass on them all (development and test only)",
  request: { body: { content: { "application/json": { schema: testPostBatchRequestSchema } } } },
  responses: {
    201: jsonResponse(
      successEnvelopeSchema(testPostBatchSchema),
      "The posts' ids, and what intake made of them",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
    413: errorResponse("The batch is larger than a request body may be (PAYLOAD_TOO_LARGE)"),
  },
});

/** Only mounted outside production: in production the path does not exist (404). */
export function testPostRoutes(deps: AppDeps, intake: Intake) {
  const router = createRouter({ writes: "submit" }, deps.env);
  router.openapi(testPostRoute, async (c) => {
    requireUser(c);
    const tweet = await createTestPost(deps.database.db, intake, c.req.valid("json"));
    return created(c, tweet);
  });
  router.openapi(testPostBatchRoute, async (c) => {
    requireUser(c);
    const batch = await createTestPosts(deps.database.db, intake, c.req.valid("json").posts);
    return created(c, { ids: batch.posts.map((post) => post.id), intake: batch.intake });
  });
  return router;
}

/** Far above any real update (a 4096-character message and the one it replies to), far below the JSON limit. */
const TELEGRAM_UPDATE_MAX_BYTES = 256 * 1024;

const telegramWebhookRoute = createRoute({
  method: "post",
  path: "/telegram/webhook",
  tags: ["intake"],
  summary: "An update Telegram pushes to the intake bot (only when PUBLIC_URL is a public https address)",
  request: {
    headers: z.object({ "x-telegram-bot-api-secret-token": z.string().max(256).optional() }),
    body: { content: { "application/json": { schema: telegramUpdateSchema } } },
  },
  responses: {
    200: jsonResponse(successEnvelopeSchema(telegramWebhookResultSchema), "What intake made of the update"),
    400: commonErrors[400],
    401: errorResponse("The X-Telegram-Bot-Api-Secret-Token header is missing or wrong (UNAUTHENTICATED)"),
    413: errorResponse("The update is larger than an update can be (PAYLOAD_TOO_LARGE)"),
  },
});

/** Mounted only while Telegram intake runs by webhook; otherwise the path does not exist (404). */
export function telegramWebhookRoutes(intake: Intake, env: AppDeps["env"]) {
  // Telegram calls with its own secret header; an API token has no business here.
  const router = createRouter({ writes: "session" }, env);
  const secret = intake.telegram?.webhook?.secret ?? "";
  // Before the body is validated: a caller without the secret learns nothing about what the route accepts.
  router.use("/telegram/webhook", async (c, next) => {
    if (!isTelegramWebhookSecret(c.req.header("x-telegram-bot-api-secret-token"), secret)) {
      throw new AppError("UNAUTHENTICATED", "The Telegram webhook secret is missing or wrong.");
    }
    if (Buffer.byteLength(await c.req.text()) > TELEGRAM_UPDATE_MAX_BYTES) {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        `A Telegram update is at most ${TELEGRAM_UPDATE_MAX_BYTES / 1024} KB.`,
      );
    }
    return next();
  });
  router.openapi(telegramWebhookRoute, async (c) =>
    ok(c, await intake.acceptTelegramUpdate(c.req.valid("json"))),
  );
  return router;
}
