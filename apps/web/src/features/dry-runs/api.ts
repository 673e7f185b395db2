import type { DryRunResult, FeedConfig, TestBenchAnswer } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { processingKeys } from "#web/features/processing/api";
import { api } from "#web/lib/api";

// Dry runs change nothing that is published: they are mutations (they run the pipeline and store a labelled job),
// and only the processing tab's job lists are asked again afterwards.

/** Preview: what each of the feed's channels would publish if this pending post were approved now. */
export function usePreviewChannels(feedId: string) {
  return useMutation({
    mutationFn: (submissionId: string) =>
      api<DryRunResult>("/processing/preview", { method: "POST", body: { submissionId, feedId } }),
  });
}

/** Test this config: the working config as dry runs against the feed's latest approved posts. */
export function useTestConfig(feedId: string) {
  return useMutation({
    mutationFn: ({ config, count }: { config: FeedConfig; count: number }) =>
      api<TestBenchAnswer>(`/feeds/${encodeURIComponent(feedId)}/config/test`, {
        method: "POST",
        body: { config, count },
      }),
  });
}

/** Which follow-up to run dry first: Retry Step, Tweak and Reprocess (a step), or Reprocess (a job). */
export type ReplayRequest =
  | { kind: "retryStep"; stepId: string }
  | { kind: "tweak"; stepId: string; newInput: string }
  | { kind: "reprocess"; jobId: string };

const replayPath = (request: ReplayRequest) =>
  request.kind === "reprocess"
    ? `/processing/jobs/${encodeURIComponent(request.jobId)}/reprocess/dry-run`
    : `/processing/steps/${encodeURIComponent(request.stepId)}/${request.kind === "tweak" ? "tweak" : "retry"}/dry-run`;

/** A replay as a dry run: nothing is sent; the answer is diffed against the job it replays. */
export function useDryRunReplay(feedId: string, submissionId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ReplayRequest) =>
      api<DryRunResult>(replayPath(request), {
        method: "POST",
        body: request.kind === "tweak" ? { newInput: request.newInput } : undefined,
      }),
    onSettled: () => {
      if (submissionId) {
        void queryClient.invalidateQueries({ queryKey: processingKeys.jobs(feedId, submissionId) });
      }
    },
  });
}
