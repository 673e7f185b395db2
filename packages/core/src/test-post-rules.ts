/** Test posts (POST /api/test/tweets): the rules the server applies and the form checks first; free of zod. */

export const TEST_POST_MAX_LENGTH = 1000;
export const X_HANDLE_PATTERN = /^@?\w{1,15}$/;
export const POST_ID_PATTERN = /^\d{1,25}$/;
/** Test posts are sent with the hashtag "test", which the server appends to the text. */
export const TEST_POST_HASHTAGS = ["test"];

export const TEST_POST_MESSAGES = {
  textRequired: "Tweet text is required",
  textTooLong: `Tweet text must be at most ${TEST_POST_MAX_LENGTH} characters`,
  username: "Username must be an X handle (letters, digits, _; up to 15)",
  inReplyToStatusId: "Reply to post id must be a post id (digits only)",
} as const;

export interface TestPostInput {
  text: string;
  username: string;
  inReplyToStatusId?: string;
}

export interface TestPostErrors {
  text?: string;
  username?: string;
  inReplyToStatusId?: string;
}

export function validateTestPost(input: TestPostInput): TestPostErrors {
  const errors: TestPostErrors = {};
  if (!input.text.trim()) errors.text = TEST_POST_MESSAGES.textRequired;
  else if (input.text.length > TEST_POST_MAX_LENGTH) errors.text = TEST_POST_MESSAGES.textTooLong;
  if (!X_HANDLE_PATTERN.test(input.username.trim())) errors.username = TEST_POST_MESSAGES.username;
  if (input.inReplyToStatusId && !POST_ID_PATTERN.test(input.inReplyToStatusId.trim())) {
    errors.inReplyToStatusId = TEST_POST_MESSAGES.inReplyToStatusId;
  }
  return errors;
}
