import type { DryRunResult, ProcessingStep } from "@curate/core";
import { FlaskConicalIcon, RotateCcwIcon, SendIcon, WandSparklesIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { serverMessage } from "#web/lib/api";
import { type ReplayRequest, useDryRunReplay } from "../api";
import { ChannelPreviewList } from "./ChannelPreviewList";
import { OutputDiff } from "./OutputDiff";

type ReplayKind = ReplayRequest["kind"];

const KIND_LABELS: Record<ReplayKind, { preview: string; publish: string }> = {
  tweak: { preview: "Tweak and Reprocess", publish: "Publish this tweak" },
  retryStep: { preview: "Retry Step", publish: "Publish this retry" },
  reprocess: { preview: "Reprocess", publish: "Publish this reprocess" },
};

interface ReplayDryRunProps {
  feedId: string;
  submissionId: string | null;
  step: ProcessingStep;
  /** The Input pane's text (for a tweak), or null when it does not parse. */
  tweakedInput: string | null;
  /** Runs the follow-up for real: a new job linked to this one by retryOfJobId. */
  onPublish: (kind: ReplayKind) => void;
  publishing: boolean;
}

/** The same step in the dry run: same chain and position. */
function sameStep(result: DryRunResult, step: ProcessingStep) {
  return result.steps.find(
    (candidate) =>
      candidate.branch === step.branch &&
      candidate.stepName === step.stepName &&
      candidate.pluginName === step.pluginName,
  );
}

/**
 * Replay with a diff: Tweak and Reprocess, Retry Step or Reprocess first run as a dry run; the new output of this
 * step shows next to this job's, each channel shows what it would publish (or edit), and "Publish this" runs it.
 */
export function ReplayDryRun({
  feedId,
  submissionId,
  step,
  tweakedInput,
  onPublish,
  publishing,
}: ReplayDryRunProps) {
  const replay = useDryRunReplay(feedId, submissionId);
  const [kind, setKind] = useState<ReplayKind | null>(null);

  const start = (next: ReplayKind) => {
    setKind(next);
    if (next === "tweak" && tweakedInput !== null)
      replay.mutate({ kind: "tweak", stepId: step.id, newInput: tweakedInput });
    if (next === "retryStep") replay.mutate({ kind: "retryStep", stepId: step.id });
    if (next === "reprocess") replay.mutate({ kind: "reprocess", jobId: step.jobId });
  };

  const result = replay.data;
  const newStep = result ? sameStep(result, step) : undefined;

  return (
    <div className="flex flex-col gap-4" data-testid="replay-dry-run">
      <p className="text-sm text-muted">
        Run a replay as a dry run first: every transform runs again, each channel renders what it would
        publish (or which earlier message it would edit), and nothing is sent until you publish it.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() => start("tweak")}
          disabled={tweakedInput === null}
          loading={replay.isPending && kind === "tweak"}
          data-testid="dry-run-tweak"
        >
          <WandSparklesIcon aria-hidden="true" />
          Dry run: Tweak and Reprocess
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => start("retryStep")}
          disabled={step.input === null}
          loading={replay.isPending && kind === "retryStep"}
        >
          <RotateCcwIcon aria-hidden="true" />
          Dry run: Retry Step
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => start("reprocess")}
          loading={replay.isPending && kind === "reprocess"}
        >
          <FlaskConicalIcon aria-hidden="true" />
          Dry run: Reprocess
        </Button>
      </div>
      {tweakedInput === null ? (
        <p className="text-xs text-red-700">Fix the JSON in the Input tab to dry-run a tweak.</p>
      ) : null}

      {replay.error ? (
        <Alert title="The dry run failed">{serverMessage(replay.error) ?? "Unknown error"}</Alert>
      ) : null}

      {result && kind ? (
        <div className="flex flex-col gap-4 border-t border-line pt-4">
          <h3 className="font-display text-sm font-semibold text-ink">
            {KIND_LABELS[kind].preview}, dry run (job {result.job.id.slice(0, 8)}…)
          </h3>
          {newStep ? (
            <OutputDiff
              before={step.output}
              after={newStep.error ?? newStep.output}
              beforeLabel={`This job's output (${step.jobId.slice(0, 8)}…)`}
              afterLabel="The dry run's output"
            />
          ) : (
            <Alert variant="info">The dry run did not reach this step.</Alert>
          )}
          <h4 className="text-sm font-medium text-ink">What each channel would publish</h4>
          <ChannelPreviewList result={result} pending={false} error={null} />
          <div className="flex flex-col gap-2 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-xs text-muted">Runs it for real, as a new job linked to this one.</p>
            <Button onClick={() => onPublish(kind)} loading={publishing} data-testid="publish-replay">
              <SendIcon aria-hidden="true" />
              {KIND_LABELS[kind].publish}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
