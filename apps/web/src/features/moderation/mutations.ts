import type { ModerateRequest, ModerationOutcome } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "#web/components/ui/toast";
import { authKeys, useCurrentUser } from "#web/features/auth/api";
import { leaderboardKeys } from "#web/features/leaderboard/api";
import { submissionKeys } from "#web/features/submissions/api";
import { ApiError, api } from "#web/lib/api";
import { moderationKeys } from "./api";
import { applyFeedStatus, type FeedStatusChange, listScope, type SubmissionPages } from "./cache";

export type ModerationAction = ModerateRequest["action"];

export interface ModerateVariables {
  submissionId: string;
  action: ModerationAction;
  note?: string;
}

const ACTION_TEXT = {
  approve: { done: "approved", doing: "approving" },
  reject: { done: "rejected", doing: "rejecting" },
} as const;

function showSignedOut() {
  toast.error("Authentication Error", { description: "You must be signed in to moderate submissions." });
}

interface ModerationCallbacks {
  /** Runs once per decision the server accepted (several may be in flight during fast triage). */
  onDecided?: (variables: ModerateVariables) => void;
  /** Runs once per decision that failed and was rolled back. */
  onFailed?: (variables: ModerateVariables, error: Error) => void;
}

/**
 * Approve / reject in one feed. The new status shows at once in every cached submission list (this feed's and
 * Explore's) and is undone for that one submission if the server refuses, so other decisions in flight keep theirs.
 */
export function useModerateSubmission(feedId: string, callbacks: ModerationCallbacks = {}) {
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const mutationKey = moderationKeys.moderate(feedId);
  // Submissions with a decision on its way, so their controls wait. Tracked here rather than with
  // useMutationState, which would add to the framework chunk every page loads first.
  const [inFlight, setInFlight] = useState<ReadonlySet<string>>(new Set());
  const settle = (submissionId: string) =>
    setInFlight((previous) => {
      const next = new Set(previous);
      next.delete(submissionId);
      return next;
    });

  const setStatus = (change: FeedStatusChange) => {
    for (const [queryKey] of queryClient.getQueriesData<SubmissionPages>({
      queryKey: submissionKeys.lists(),
    })) {
      queryClient.setQueryData<SubmissionPages>(queryKey, (data) =>
        applyFeedStatus(data, change, listScope(queryKey)),
      );
    }
  };

  const mutation = useMutation({
    mutationKey,
    mutationFn: ({ submissionId, action, note }: ModerateVariables) =>
      api<ModerationOutcome>("/moderate", {
        method: "POST",
        body: {
          submissionId,
          feedId,
          action,
          note: note?.trim() || undefined,
          moderatorAccountId: user?.nearAccountId,
          moderatorAccountIdType: "near",
          source: "ui",
        } satisfies ModerateRequest,
      }),
    onMutate: async ({ submissionId, action }) => {
      // A list fetch already under way would land after the optimistic change and undo it.
      await queryClient.cancelQueries({ queryKey: submissionKeys.lists() });
      setStatus({ submissionId, feedId, status: action === "approve" ? "approved" : "rejected" });
    },
    onSuccess: (_outcome, variables) => {
      toast.success("Success", {
        description: `Submission successfully ${ACTION_TEXT[variables.action].done}.`,
      });
      callbacks.onDecided?.(variables);
    },
    onError: (error, variables) => {
      // Controls only exist on pending items, so pending is what the submission was before.
      setStatus({ submissionId: variables.submissionId, feedId, status: "pending" });
      if (error instanceof ApiError && error.status === 401) {
        showSignedOut();
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
      } else {
        toast.error("Error", { description: `Error ${ACTION_TEXT[variables.action].doing} submission.` });
        // A 403 means the cached can-moderate answer is out of date.
        if (error instanceof ApiError && error.status === 403) {
          void queryClient.invalidateQueries({ queryKey: moderationKeys.canModerateFeed(feedId) });
        }
      }
      callbacks.onFailed?.(variables, error);
    },
    onSettled: (_data, _error, variables) => {
      settle(variables.submissionId);
      void queryClient.invalidateQueries({ queryKey: submissionKeys.detail(variables.submissionId) });
      // Refetching lists while other decisions are still in flight would briefly show those as pending again;
      // the last decision to settle refreshes every list (Explore too) and the leaderboard counts.
      if (queryClient.isMutating({ mutationKey }) > 1) return;
      void queryClient.invalidateQueries({ queryKey: submissionKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
    },
  });

  /** Starts a decision; returns false (after the sign-in toast) when nobody is signed in. */
  const moderate = (variables: ModerateVariables): boolean => {
    if (!user) {
      showSignedOut();
      return false;
    }
    setInFlight((previous) => new Set(previous).add(variables.submissionId));
    mutation.mutate(variables);
    return true;
  };

  return { moderate, inFlight };
}
