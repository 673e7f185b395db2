import type {
  BulkFilter,
  BulkModerateRequest,
  BulkModerationAnswer,
  BulkRun,
  BulkRunRequest,
  BulkRunUndoAnswer,
  ModerateRequest,
  ModerationOutcome,
  UndoAnswer,
  UndoRequest,
} from "@curate/core";
import { tallyText } from "@curate/core";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "#web/components/ui/toast";
import { authKeys, useCurrentUser } from "#web/features/auth/api";
import { leaderboardKeys } from "#web/features/leaderboard/api";
import { moderationLogKeys } from "#web/features/moderation-log/api";
import { submissionKeys } from "#web/features/submissions/api";
import { shortAccountId } from "#web/lib/account";
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

/** Shows a submission's new status in one feed in every cached submission list (this feed's and Explore's). */
function setCachedStatus(queryClient: QueryClient, change: FeedStatusChange) {
  for (const [queryKey] of queryClient.getQueriesData<SubmissionPages>({
    queryKey: submissionKeys.lists(),
  })) {
    queryClient.setQueryData<SubmissionPages>(queryKey, (data) =>
      applyFeedStatus(data, change, listScope(queryKey)),
    );
  }
}

interface ModerationCallbacks {
  /** Runs once per decision the server accepted (several may be in flight during fast triage). */
  onDecided?: (variables: ModerateVariables) => void;
  /** Runs once per decision that failed and was rolled back. */
  onFailed?: (variables: ModerateVariables, error: Error) => void;
  /** An approval that can still be taken back (the feed's undo window), until `until`. */
  onUndoable?: (undoable: Undoable) => void;
  /** The toast's Undo was pressed. */
  onUndo?: (submissionIds: string[]) => void;
}

export interface Undoable {
  submissionIds: string[];
  /** ms since the epoch. */
  until: number;
}

/** How long a toast offering Undo stays: as long as the window, less a margin for the request. */
function undoableFor(undoUntil: string | null): { until: number; duration: number } | null {
  if (!undoUntil) return null;
  const until = Date.parse(undoUntil) - 500;
  const duration = until - Date.now();
  return duration > 1000 ? { until, duration } : null;
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

  const setStatus = (change: FeedStatusChange) => setCachedStatus(queryClient, change);

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
      await Promise.all([
        queryClient.cancelQueries({ queryKey: submissionKeys.lists() }),
        queryClient.cancelQueries({ queryKey: submissionKeys.heads() }),
      ]);
      setStatus({ submissionId, feedId, status: action === "approve" ? "approved" : "rejected" });
    },
    onSuccess: (outcome, variables) => {
      if (outcome.status === "pending") {
        // A quorum feed: the vote counted, and the post waits for more approvers.
        setStatus({ submissionId: variables.submissionId, feedId, status: "pending" });
        toast.success("Vote counted", {
          description: outcome.tally
            ? tallyText(
                outcome.tally.votes.map((vote) => ({ ...vote, voter: shortAccountId(vote.voter) })),
                outcome.tally.required,
              )
            : "The post waits for more approvers.",
        });
        callbacks.onDecided?.(variables);
        return;
      }
      const undoable = undoableFor(outcome.undoUntil);
      toast.success("Success", {
        description: `Submission successfully ${ACTION_TEXT[variables.action].done}.`,
        ...(undoable
          ? {
              duration: undoable.duration,
              action: { label: "Undo", onClick: () => callbacks.onUndo?.([variables.submissionId]) },
            }
          : {}),
      });
      if (undoable)
        callbacks.onUndoable?.({ submissionIds: [variables.submissionId], until: undoable.until });
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
      void queryClient.invalidateQueries({ queryKey: submissionKeys.heads() });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
      void queryClient.invalidateQueries({ queryKey: moderationLogKeys.feed(feedId) });
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

export interface BulkModerateVariables {
  action: ModerationAction;
  note?: string;
  /** The selected posts; or, for "Select all N matching", every pending post the search and network match. */
  selection: { submissionIds: string[] } | { matching: BulkFilter };
}

/** The one toast a bulk decision ends with: how many were decided, and how many someone had decided first. */
export function bulkSummary(answer: Pick<BulkModerationAnswer, "action" | "results">): string {
  const decided = answer.results.filter((result) => result.outcome === "decided").length;
  const already = answer.results.filter((result) => result.outcome.startsWith("already_")).length;
  const missing = answer.results.filter((result) => result.outcome === "not_found").length;
  const verb = ACTION_TEXT[answer.action].done;
  const voted = answer.results.filter((result) => result.outcome === "voted").length;
  const parts = [`${decided} ${decided === 1 ? "post" : "posts"} ${verb}.`];
  if (voted)
    parts.push(`${voted} ${voted === 1 ? "vote" : "votes"} counted; those posts wait for more approvers.`);
  if (already) parts.push(`${already} had already been decided.`);
  if (missing) parts.push(`${missing} ${missing === 1 ? "is" : "are"} no longer in this feed.`);
  return parts.join(" ");
}

/**
 * Approve / reject the curation tab's selection in one call. Selected posts show their new status at once; those
 * the server did not decide show what they really are (decided by someone else, or pending again).
 */
export function useBulkModerate(
  feedId: string,
  callbacks: Pick<ModerationCallbacks, "onUndoable" | "onUndo"> & { onSettled?: () => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: moderationKeys.moderate(feedId),
    mutationFn: ({ action, note, selection }: BulkModerateVariables) =>
      api<BulkModerationAnswer>("/moderate/bulk", {
        method: "POST",
        body: {
          feedId,
          action,
          note: note?.trim() || undefined,
          ...("submissionIds" in selection
            ? { submissionIds: selection.submissionIds }
            : { filter: selection.matching }),
        } satisfies BulkModerateRequest,
      }),
    onMutate: async ({ action, selection }) => {
      await Promise.all([
        queryClient.cancelQueries({ queryKey: submissionKeys.lists() }),
        queryClient.cancelQueries({ queryKey: submissionKeys.heads() }),
      ]);
      if (!("submissionIds" in selection)) return;
      for (const submissionId of selection.submissionIds) {
        setCachedStatus(queryClient, {
          submissionId,
          feedId,
          status: action === "approve" ? "approved" : "rejected",
        });
      }
    },
    onSuccess: (answer) => {
      for (const result of answer.results) {
        if (result.outcome === "decided") continue;
        const status =
          result.outcome === "already_approved"
            ? "approved"
            : result.outcome === "already_rejected"
              ? "rejected"
              : "pending";
        setCachedStatus(queryClient, { submissionId: result.submissionId, feedId, status });
      }
      const undoable = answer.action === "approve" ? undoableFor(answer.undoUntil) : null;
      const decided = answer.results
        .filter((result) => result.outcome === "decided")
        .map((result) => result.submissionId);
      toast.success("Success", {
        description: bulkSummary(answer),
        ...(undoable && decided.length
          ? {
              duration: undoable.duration,
              action: {
                label: decided.length === 1 ? "Undo" : `Undo ${decided.length} approvals`,
                onClick: () => callbacks.onUndo?.(decided),
              },
            }
          : {}),
      });
      if (undoable && decided.length)
        callbacks.onUndoable?.({ submissionIds: decided, until: undoable.until });
    },
    onError: (error, { selection, action }) => {
      if ("submissionIds" in selection) {
        for (const submissionId of selection.submissionIds) {
          setCachedStatus(queryClient, { submissionId, feedId, status: "pending" });
        }
      }
      if (error instanceof ApiError && error.status === 401) {
        showSignedOut();
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
        return;
      }
      toast.error("Error", {
        description: `Error ${ACTION_TEXT[action].doing} submissions: ${error.message}`,
      });
    },
    onSettled: () => {
      callbacks.onSettled?.();
      void queryClient.invalidateQueries({ queryKey: submissionKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: submissionKeys.heads() });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
      void queryClient.invalidateQueries({ queryKey: moderationLogKeys.feed(feedId) });
    },
  });
}

/** Takes approvals back inside the feed's undo window: the posts are pending again and nothing is published. */
export function useUndoDecisions(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submissionIds: string[]) =>
      api<UndoAnswer>("/moderate/undo", {
        method: "POST",
        body: (submissionIds.length === 1
          ? { feedId, submissionId: submissionIds[0] }
          : { feedId, submissionIds }) satisfies UndoRequest,
      }),
    onSuccess: (answer) => {
      for (const result of answer.results) {
        if (result.outcome === "undone") {
          setCachedStatus(queryClient, { submissionId: result.submissionId, feedId, status: "pending" });
        }
      }
      const late = answer.results.length - answer.undone;
      toast.success("Undone", {
        description: `${answer.undone === 1 ? "1 approval" : `${answer.undone} approvals`} undone: pending again.${
          late ? ` ${late} could not be undone any more.` : ""
        }`,
      });
    },
    onError: (error) => {
      toast.error("Could not undo", { description: error.message });
    },
    onSettled: (_data, _error, submissionIds) => {
      // Their pages' histories list the undo now.
      for (const submissionId of submissionIds) {
        void queryClient.invalidateQueries({ queryKey: submissionKeys.detail(submissionId) });
      }
      void queryClient.invalidateQueries({ queryKey: submissionKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: submissionKeys.heads() });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
      void queryClient.invalidateQueries({ queryKey: moderationLogKeys.feed(feedId) });
    },
  });
}

/** The toast a background bulk decision ends with. */
export function bulkRunSummary(run: BulkRun): string {
  if (run.state === "failed") {
    return `Stopped after deciding ${run.decided} of ${run.total} posts: ${run.error ?? "an error"}. The rest are still pending.`;
  }
  const parts = [`${run.decided} ${run.decided === 1 ? "post" : "posts"} ${ACTION_TEXT[run.action].done}.`];
  if (run.alreadyDecided) parts.push(`${run.alreadyDecided} had already been decided.`);
  if (run.failed) parts.push(`${run.failed} ${run.failed === 1 ? "is" : "are"} no longer in this feed.`);
  if (run.undoMissed) parts.push("Undo is not offered: the run took longer than the feed's undo window.");
  return parts.join(" ");
}

/** Starts "Select all N matching" beyond the cap of one call as a background run; the tab then shows its progress. */
export function useStartBulkRun(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, note, filter }: { action: ModerationAction; note?: string; filter: BulkFilter }) =>
      api<BulkRun>("/moderate/bulk-runs", {
        method: "POST",
        body: {
          feedId,
          action,
          note: note?.trim() || undefined,
          filter,
        } satisfies BulkRunRequest,
      }),
    onSuccess: (run) => {
      queryClient.setQueryData(moderationKeys.latestBulkRun(feedId), run);
    },
    onError: (error, { action }) => {
      if (error instanceof ApiError && error.status === 401) {
        showSignedOut();
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
        return;
      }
      toast.error("Error", {
        description: `Error ${ACTION_TEXT[action].doing} submissions: ${error.message}`,
      });
    },
  });
}

/** Takes back every approval of a background run that finished inside the feed's undo window. */
export function useUndoBulkRun(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) =>
      api<BulkRunUndoAnswer>(`/moderate/bulk-runs/${encodeURIComponent(runId)}/undo`, { method: "POST" }),
    onSuccess: (answer) => {
      queryClient.setQueryData(moderationKeys.latestBulkRun(feedId), answer.run);
      toast.success("Undone", {
        description: `${answer.undone === 1 ? "1 approval" : `${answer.undone} approvals`} undone: pending again.${
          answer.notUndone ? ` ${answer.notUndone} could not be undone any more.` : ""
        }`,
      });
    },
    onError: (error) => {
      toast.error("Could not undo", { description: error.message });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: submissionKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: submissionKeys.heads() });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
      void queryClient.invalidateQueries({ queryKey: moderationLogKeys.feed(feedId) });
    },
  });
}

/** What a run's end means for the curation tab: lists refreshed, one summary toast (with Undo when offered). */
export function useBulkRunEnded(feedId: string) {
  const queryClient = useQueryClient();
  const undo = useUndoBulkRun(feedId);
  return (run: BulkRun) => {
    void queryClient.invalidateQueries({ queryKey: submissionKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: submissionKeys.heads() });
    void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
    const undoable = run.action === "approve" ? undoableFor(run.undoUntil) : null;
    const raise = run.state === "failed" ? toast.error : toast.success;
    raise(run.state === "failed" ? "Bulk decision stopped" : "Bulk decision finished", {
      description: bulkRunSummary(run),
      ...(undoable && run.decided
        ? {
            duration: undoable.duration,
            action: { label: `Undo ${run.decided} approvals`, onClick: () => undo.mutate(run.id) },
          }
        : {}),
    });
  };
}
