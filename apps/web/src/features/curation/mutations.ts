import { TEST_POST_HASHTAGS, type TestPost, type TestPostInput } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { leaderboardKeys } from "#web/features/leaderboard/api";
import { submissionKeys } from "#web/features/submissions/api";
import { api } from "#web/lib/api";

export function createTestPost(input: TestPostInput): Promise<TestPost> {
  return api<TestPost>("/test/tweets", {
    method: "POST",
    body: { ...input, hashtags: TEST_POST_HASHTAGS },
  });
}

/** Creating a test post runs intake at once, so the lists and counts it may change are refreshed. */
export function useCreateTestPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTestPost,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: submissionKeys.all });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
    },
  });
}
