import type { ProcessingStep } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { SendIcon } from "lucide-react";
import { useEffect } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { jobStepsQueryOptions } from "#web/features/processing/api";
import { useDryRunReplay } from "../api";
import { ChannelPreviewList } from "./ChannelPreviewList";
import { OutputDiff } from "./OutputDiff";

export interface ReprocessPreviewDialogProps {
  feedId: string;
  submissionId: string | null;
  jobId: string;
  onPublish: () => void;
  publishing: boolean;
  onClose: () => void;
}

const sameStep = (steps: ProcessingStep[] | undefined, step: ProcessingStep) =>
  steps?.find(
    (candidate) =>
      candidate.branch === step.branch &&
      candidate.stepName === step.stepName &&
      candidate.pluginName === step.pluginName,
  );

/**
 * Reprocess, first as a dry run: the feed's latest config over this job's post, each step's output diffed against
 * this job's, each channel's rendered request (or the publication it would edit); "Publish this" reprocesses.
 */
export default function ReprocessPreviewDialog({
  feedId,
  submissionId,
  jobId,
  onPublish,
  publishing,
  onClose,
}: ReprocessPreviewDialogProps) {
  const replay = useDryRunReplay(feedId, submissionId);
  const { mutate } = replay;
  useEffect(() => mutate({ kind: "reprocess", jobId }), [mutate, jobId]);
  const { data: previous } = useQuery(jobStepsQueryOptions(feedId, jobId));
  const result = replay.data;

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        size="lg"
        title="Reprocess: dry run"
        description={`The feed's latest config over this job's post (job ${jobId.slice(0, 8)}…). Nothing is sent until you publish it.`}
      >
        <div className="flex flex-col gap-5">
          {result ? (
            <section className="flex flex-col gap-3" aria-label="Step outputs">
              <h3 className="text-sm font-medium text-ink">Each step's output against this job's</h3>
              {result.steps.map((step) => {
                const before = sameStep(previous, step);
                return (
                  <details
                    key={step.id}
                    className="rounded-md border border-line p-3"
                    open={step.type === "transformation"}
                  >
                    <summary className="cursor-pointer text-sm font-medium text-ink">
                      {step.stepOrder}. {step.stepName ?? step.pluginName}
                    </summary>
                    <div className="pt-3">
                      <OutputDiff
                        before={before?.error ?? before?.output ?? null}
                        after={step.error ?? step.output}
                        beforeLabel={before ? "This job's output" : "Not in this job"}
                        afterLabel="The dry run's output"
                      />
                    </div>
                  </details>
                );
              })}
            </section>
          ) : null}
          <section className="flex flex-col gap-3" aria-label="Channels">
            <h3 className="text-sm font-medium text-ink">What each channel would publish</h3>
            <ChannelPreviewList result={result} pending={replay.isPending} error={replay.error} />
          </section>
        </div>
        <div className="mt-5 flex flex-col-reverse gap-2 border-t border-line pt-4 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={onPublish} loading={publishing} disabled={!result} data-testid="publish-reprocess">
            <SendIcon aria-hidden="true" />
            Publish this reprocess
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
