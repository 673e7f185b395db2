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

/** The stored test post and what the intake pass that read it did. */
export const testPostSchema = z.object({
  id: z.string(),
  text: z.string(),
  username: z.string(),
  inReplyToStatusId: z.string().nullable(),
  createdAt: z.string(),
  intake: z.object({ read: z.number(), submitted: z.number(), moderated: z.number() }),
});
export type TestPost = z.infer<typeof testPostSchema>;
