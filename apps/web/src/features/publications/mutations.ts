import type { RetractAnswer, RetractRequest } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast";
import { authKeys } from "#web/features/auth/api";
import { moderationKeys } from "#web/features/moderation/api";
import { processingKeys } from "#web/features/processing/api";
import { submissionKeys } from "#web/features/submissions/api";
import { ApiError, api } from "#web/lib/api";
import { publicationKeys } from "./api";

/**
 * Retract an approved post in one feed: it becomes rejected and its publications are removed where the channels
 * allow it. Lists, the submission page and the processing tab are read again afterwards.
 */
export function useRetractSubmission(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ submissionId, note }: { submissionId: string; note?: string }) =>
      api<RetractAnswer>("/moderate/retract", {
        method: "POST",
        body: { submissionId, feedId, note: note?.trim() || undefined } satisfies RetractRequest,
      }),
    onSuccess: (answer) => {
      toast.success("Retracted", {
        description: answer.publications
          ? `Removing ${answer.publications} ${answer.publications === 1 ? "publication" : "publications"}. The processing tab shows each channel's outcome.`
          : "Nothing had been published yet.",
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) {
        toast.error("Authentication Error", {
          description: "You must be signed in to moderate submissions.",
        });
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
        return;
      }
      if (error instanceof ApiError && error.status === 403) {
        void queryClient.invalidateQueries({ queryKey: moderationKeys.canModerateFeed(feedId) });
      }
      toast.error("Error", { description: `Error retracting submission: ${error.message}` });
    },
    onSettled: (_answer, _error, { submissionId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
        queryClient.invalidateQueries({ queryKey: publicationKeys.submission(submissionId) }),
        queryClient.invalidateQueries({ queryKey: processingKeys.feed(feedId) }),
      ]),
  });
}
