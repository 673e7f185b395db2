import { successEnvelopeSchema, testPostRequestSchema, testPostSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { requireUser } from "../auth/middleware.ts";
import { type AppDeps, createRouter } from "../context.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { created } from "../http/envelope.ts";
import { createTestTweet, type Intake } from "./runtime.ts";

const testTweetRoute = createRoute({
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

/** Only mounted outside production: in production the path does not exist (404). */
export function testTweetRoutes(deps: AppDeps, intake: Intake) {
  const router = createRouter();
  router.openapi(testTweetRoute, async (c) => {
    requireUser(c);
    const tweet = await createTestTweet(deps.database.db, intake, c.req.valid("json"));
    return created(c, tweet);
  });
  return router;
}
