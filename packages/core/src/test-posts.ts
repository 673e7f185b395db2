import { z } from "zod";
import {
  POST_ID_PATTERN,
  TEST_POST_MAX_LENGTH,
  TEST_POST_MESSAGES,
  X_HANDLE_PATTERN,
} from "./test-post-rules.ts";

export const testPostRequestSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, TEST_POST_MESSAGES.textRequired)
    .max(TEST_POST_MAX_LENGTH, TEST_POST_MESSAGES.textTooLong),
  username: z
    .string()
    .trim()
    .regex(X_HANDLE_PATTERN, TEST_POST_MESSAGES.username)
    .transform((u) => u.replace(/^@/, "")),
  hashtags: z
    .array(z.string().regex(/^#?\w{1,64}$/, "Invalid hashtag"))
    .max(10)
    .optional(),
  inReplyToStatusId: z
    .string()
    .trim()
    .regex(POST_ID_PATTERN, TEST_POST_MESSAGES.inReplyToStatusId)
    .optional(),
});
export type TestPostRequest = z.input<typeof testPostRequestSchema>;

/** What one intake pass did: posts it read, submissions it stored, decisions it made. */
const intakePassSchema = z.object({ read: z.number(), submitted: z.number(), moderated: z.number() });

/** The stored test post and what the intake pass that read it did. */
export const testPostSchema = z.object({
  id: z.string(),
  text: z.string(),
  username: z.string(),
  inReplyToStatusId: z.string().nullable(),
  createdAt: z.string(),
  intake: intakePassSchema,
});
export type TestPost = z.infer<typeof testPostSchema>;

/**
 * Most posts one batch may hold. A queue longer than one bulk decision may take (1,050 posts) is three batches; one
 * post per request cost about fourteen times the CPU (a session, a request and an intake pass for each).
 */
export const TEST_POST_BATCH_MAX = 500;

export const testPostBatchRequestSchema = z.object({
  posts: z
    .array(testPostRequestSchema)
    .min(1, "A batch holds at least one post.")
    .max(TEST_POST_BATCH_MAX, `A batch holds at most ${TEST_POST_BATCH_MAX} posts.`),
});
export type TestPostBatchRequest = z.input<typeof testPostBatchRequestSchema>;

/** The stored posts' ids, in the order sent, and what the one intake pass that read them all did. */
export const testPostBatchSchema = z.object({ ids: z.array(z.string()), intake: intakePassSchema });
export type TestPostBatch = z.infer<typeof testPostBatchSchema>;
