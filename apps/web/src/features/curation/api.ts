import { useMutation, useQueryClient } from "@tanstack/react-query";
import { leaderboardKeys } from "#web/features/leaderboard/api";
import { submissionKeys } from "#web/features/submissions/api";
import { api } from "#web/lib/api";

export interface TestTweetInput {
  text: string;
  username: string;
  inReplyToStatusId?: string;
}

/** The stored test post and what the intake pass that read it did. */
export interface TestTweet {
  id: string;
  text: string;
  username: string;
  inReplyToStatusId: string | null;
  createdAt: string;
  intake: { read: number; submitted: number; moderated: number };
}

/** Document 1 §7: test posts are sent with the hashtag "test", which the server appends to the text. */
export const TEST_TWEET_HASHTAGS = ["test"];

export function createTestTweet(input: TestTweetInput): Promise<TestTweet> {
  return api<TestTweet>("/test/tweets", {
    method: "POST",
    body: { ...input, hashtags: TEST_TWEET_HASHTAGS },
  });
}

/** Creating a test post runs intake at once, so the lists and counts it may change are refreshed. */
export function useCreateTestTweet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTestTweet,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: submissionKeys.all });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
    },
  });
}

/** The hashtags a post names, lower-cased and without "#", in order of first appearance. */
export function hashtagsIn(text: string): string[] {
  const tags = [...text.matchAll(/#(\w+)/g)].map((match) => match[1].toLowerCase());
  return [...new Set(tags)];
}

export const USERNAME_PATTERN = /^@?\w{1,15}$/;
export const POST_ID_PATTERN = /^\d{1,25}$/;

export interface TestTweetErrors {
  text?: string;
  username?: string;
  inReplyToStatusId?: string;
}

/** The same rules the server applies, checked before sending so mistakes show next to their field. */
export function validateTestTweet(input: TestTweetInput): TestTweetErrors {
  const errors: TestTweetErrors = {};
  if (!input.text.trim()) errors.text = "Tweet text is required";
  else if (input.text.length > 1000) errors.text = "Tweet text must be at most 1000 characters";
  if (!USERNAME_PATTERN.test(input.username.trim())) {
    errors.username = "Username must be an X handle (letters, digits, _; up to 15)";
  }
  if (input.inReplyToStatusId && !POST_ID_PATTERN.test(input.inReplyToStatusId.trim())) {
    errors.inReplyToStatusId = "Reply to post id must be a post id (digits only)";
  }
  return errors;
}
