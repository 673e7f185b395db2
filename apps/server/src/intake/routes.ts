import { successEnvelopeSchema } from "@curate/core";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware.ts";
import { commonErrors, errorResponse, jsonResponse } from "../http/contracts.ts";
import { created } from "../http/envelope.ts";
import { type AppDeps, createRouter } from "../http/router.ts";
import { createTestTweet, type Intake } from "./runtime.ts";

const testTweetBodySchema = z.object({
  text: z.string().trim().min(1, "Tweet text is required").max(1000),
  username: z
    .string()
    .trim()
    .regex(/^@?\w{1,15}$/, "Username must be an X handle (letters, digits, _; up to 15)")
    .transform((u) => u.replace(/^@/, "")),
  hashtags: z
    .array(z.string().regex(/^#?\w{1,64}$/, "Invalid hashtag"))
    .max(10)
    .optional(),
  inReplyToStatusId: z
    .string()
    .regex(/^\d{1,25}$/, "inReplyToStatusId must be a post id")
    .optional(),
});

const testTweetRoute = createRoute({
  method: "post",
  path: "/test/tweets",
  tags: ["test"],
  summary: "Create a test post and run intake on it at once (development and test only)",
  request: { body: { content: { "application/json": { schema: testTweetBodySchema } } } },
  responses: {
    201: jsonResponse(
      successEnvelopeSchema(
        z.object({
          id: z.string(),
          text: z.string(),
          username: z.string(),
          inReplyToStatusId: z.string().nullable(),
          createdAt: z.string(),
          intake: z.object({ read: z.number(), submitted: z.number(), moderated: z.number() }),
        }),
      ),
      "The post, and what intake made of it",
    ),
    400: commonErrors[400],
    401: errorResponse("Not signed in (UNAUTHENTICATED)"),
  },
});

/** Only mounted outside production: in production the path does not exist (404). */
export function testTweetRoutes(deps: AppDeps & { intake: Intake }) {
  const router = createRouter();
  router.openapi(testTweetRoute, async (c) => {
    requireUser(c);
    const tweet = await createTestTweet(deps.database.db, deps.intake, c.req.valid("json"));
    return created(c, tweet);
  });
  return router;
}
