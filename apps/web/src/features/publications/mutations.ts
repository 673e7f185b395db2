import type {
  ProcessingJob,
  PublishAgainRequest,
  RetractAnswer,
  RetractCopyAnswer,
  RetractRequest,
} from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast";
import { authKeys } from "#web/features/auth/api";
import { moderationKeys } from "#web/features/moderation/api";
import { processingKeys } from "#web/features/processing/api";
import { submissionKeys } from "#web/features/submissions/api";
import { ApiError, api, serverMessage } from "#web/lib/api";
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

/** A publication's feed and submission: what its actions change and must read again. */
interface EntryTarget {
  publicationId: string;
  feedId: string;
}

/** The ledger and the feed's processing tab (jobs, rows, failure badge) after an action on an entry. */
function refreshLedger(queryClient: ReturnType<typeof useQueryClient>, feedId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: publicationKeys.all }),
    queryClient.invalidateQueries({ queryKey: processingKeys.feed(feedId) }),
  ]);
}

function onEntryError(
  queryClient: ReturnType<typeof useQueryClient>,
  feedId: string,
  error: Error,
  failed: string,
) {
  if (error instanceof ApiError && error.status === 401) {
    void queryClient.invalidateQueries({ queryKey: authKeys.me() });
  }
  if (error instanceof ApiError && error.status === 403) {
    void queryClient.invalidateQueries({ queryKey: moderationKeys.canModerateFeed(feedId) });
  }
  toast.error(`${failed}: ${serverMessage(error) ?? "Unknown error"}`);
}

/**
 * Publish again as a new post: a second copy on the entry's channel, as its own job and ledger entry. The request
 * carries the moderator's confirmation; the server also limits how often an account may do it.
 */
export function usePublishAgain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ publicationId }: EntryTarget) =>
      api<{ job: ProcessingJob }>(`/publications/${encodeURIComponent(publicationId)}/publish-again`, {
        method: "POST",
        body: { confirm: true } satisfies PublishAgainRequest,
      }),
    onSuccess: () => {
      toast.success("Publishing again as a new post.", {
        description: "The processing tab shows the new job; re-runs then edit the new copy.",
      });
    },
    onError: (error, { feedId }) => onEntryError(queryClient, feedId, error, "Failed to publish again"),
    onSettled: (_answer, _error, { feedId }) => refreshLedger(queryClient, feedId),
  });
}

/** Retract an older copy still published beside its channel's live one; the post stays approved. */
export function useRetractCopy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ publicationId }: EntryTarget) =>
      api<RetractCopyAnswer>(`/publications/${encodeURIComponent(publicationId)}/retract`, {
        method: "POST",
      }),
    onSuccess: () => {
      toast.success("Retracting the older copy.", { description: "The live copy stays as it is." });
    },
    onError: (error, { feedId }) => onEntryError(queryClient, feedId, error, "Failed to retract the copy"),
    onSettled: (_answer, _error, { feedId }) => refreshLedger(queryClient, feedId),
  });
}
