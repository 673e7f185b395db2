import type { ProcessingJob, ResumeChannelsAnswer } from "@curate/core";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast";
import { authKeys } from "#web/features/auth/api";
import { moderationKeys } from "#web/features/moderation/api";
import { ApiError, api, serverMessage } from "#web/lib/api";
import { processingKeys } from "./api";

/** The processing toasts; an error toast ends with the server's message. */
export const PROCESSING_TOASTS = {
  retryJob: { done: "Job retry triggered successfully.", failed: "Failed to retry job" },
  retryStep: { done: "Step retry triggered successfully.", failed: "Failed to retry step" },
  reprocess: { done: "Reprocessing job triggered successfully.", failed: "Failed to reprocess job" },
  tweak: { done: "Tweak and reprocess triggered successfully.", failed: "Failed to tweak and reprocess" },
} as const;

type Action = keyof typeof PROCESSING_TOASTS;

export function failureToastText(action: Action, error: unknown): string {
  return `${PROCESSING_TOASTS[action].failed}: ${serverMessage(error) ?? "Unknown error"}`;
}

/** Every follow-up names the submission whose jobs it adds to. */
interface FollowUp {
  submissionId: string | null;
}

export interface JobFollowUp extends FollowUp {
  jobId: string;
}

export interface StepFollowUp extends FollowUp {
  stepId: string;
}

export interface TweakFollowUp extends StepFollowUp {
  /** The Input pane's text, sent as it is: the server parses it as JSON. */
  newInput: string;
}

/**
 * A new job changes the submission's jobs, its row's latest job, the steps on show and possibly the feed's
 * failure count, so all four are asked again.
 */
function refreshAfter(queryClient: QueryClient, feedId: string, submissionId: string | null) {
  if (submissionId) {
    void queryClient.invalidateQueries({ queryKey: processingKeys.jobs(feedId, submissionId) });
  }
  void queryClient.invalidateQueries({ queryKey: processingKeys.rows(feedId) });
  void queryClient.invalidateQueries({ queryKey: processingKeys.allSteps(feedId) });
  void queryClient.invalidateQueries({ queryKey: processingKeys.summary(feedId) });
  void queryClient.invalidateQueries({ queryKey: processingKeys.recaps(feedId) });
}

function useFollowUp<Variables extends FollowUp>(
  feedId: string,
  action: Action,
  send: (variables: Variables) => Promise<{ job: ProcessingJob }>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: Variables) => (await send(variables)).job,
    onSuccess: () => {
      toast.success(PROCESSING_TOASTS[action].done);
    },
    onError: (error) => {
      toast.error(failureToastText(action, error));
      if (error instanceof ApiError && error.status === 401) {
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
      }
      // A 403 means the cached can-moderate answer is out of date.
      if (error instanceof ApiError && error.status === 403) {
        void queryClient.invalidateQueries({ queryKey: moderationKeys.canModerateFeed(feedId) });
      }
    },
    onSettled: (_job, _error, variables) => refreshAfter(queryClient, feedId, variables.submissionId),
  });
}

const post = (path: string, body?: unknown) => api<{ job: ProcessingJob }>(path, { method: "POST", body });

/** Retry Failed: all failed steps of a job, in a new job. */
export function useRetryJob(feedId: string) {
  return useFollowUp<JobFollowUp>(feedId, "retryJob", ({ jobId }) =>
    post(`/processing/jobs/${encodeURIComponent(jobId)}/retry`),
  );
}

/** Retry Step: the job again from this step, with its stored input. */
export function useRetryStep(feedId: string) {
  return useFollowUp<StepFollowUp>(feedId, "retryStep", ({ stepId }) =>
    post(`/processing/steps/${encodeURIComponent(stepId)}/retry`),
  );
}

/** Reprocess: a new job from the feed's latest configuration. */
export function useReprocessJob(feedId: string) {
  return useFollowUp<JobFollowUp>(feedId, "reprocess", ({ jobId }) =>
    post(`/processing/jobs/${encodeURIComponent(jobId)}/reprocess`),
  );
}

/** Tweak and Reprocess: this step again with the edited input, then the rest of its branch. */
export function useTweakStep(feedId: string) {
  return useFollowUp<TweakFollowUp>(feedId, "tweak", ({ stepId, newInput }) =>
    post(`/processing/steps/${encodeURIComponent(stepId)}/tweak`, { newInput }),
  );
}

/** Resume publishing: lifts the feed's paused channels (or one) and sends what they held again. */
export function useResumeChannels(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelKey?: string) =>
      api<ResumeChannelsAnswer>(`/processing/feeds/${encodeURIComponent(feedId)}/pauses/resume`, {
        method: "POST",
        body: channelKey ? { channelKey } : {},
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: processingKeys.feed(feedId) }),
  });
}

export const RUN_RECAP_TOASTS = { done: "Recap run started.", failed: "Failed to run recap" } as const;

/** Run now: a recap over the posts approved since its last run, as a new job. */
export function useRunRecap(feedId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (recapId: string) =>
      (
        await post(
          `/processing/feeds/${encodeURIComponent(feedId)}/recaps/${encodeURIComponent(recapId)}/run`,
        )
      ).job,
    onSuccess: () => toast.success(RUN_RECAP_TOASTS.done),
    onError: (error) => toast.error(`${RUN_RECAP_TOASTS.failed}: ${serverMessage(error) ?? "Unknown error"}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: processingKeys.recaps(feedId) }),
  });
}
