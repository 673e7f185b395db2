import type { ProcessingStep } from "@curate/core";
import { WandSparklesIcon } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Button } from "#web/components/ui/button";
import { CopyButton } from "#web/components/ui/copy-button";
import { Dialog, DialogContent } from "#web/components/ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs";
import { Textarea } from "#web/components/ui/textarea";
import { ReplayDryRun } from "#web/features/dry-runs/components/ReplayDryRun";
import { ProcessingStatusPill } from "#web/features/processing/components/ProcessingStatusPill";
import { useReprocessJob, useRetryStep, useTweakStep } from "#web/features/processing/mutations";
import { checkInputText, prettyJson } from "#web/features/processing/view";
import { cn } from "#web/lib/cn";

// The output and config panes are 300 px high and scroll, so a long output never pushes the actions away.
const PANE_HEIGHT = "h-[300px]";

interface StepDetailDialogProps {
  feedId: string;
  step: ProcessingStep;
  /** Null for a recap run, which covers many submissions. */
  submissionId: string | null;
  onClose: () => void;
}

/** A step's input (editable, for Tweak and Reprocess), output, config and error, each with a copy button. */
export function StepDetailDialog({ feedId, step, submissionId, onClose }: StepDetailDialogProps) {
  const inputId = useId();
  const [input, setInput] = useState(() => prettyJson(step.input));
  const tweak = useTweakStep(feedId);
  const retryStep = useRetryStep(feedId);
  const reprocess = useReprocessJob(feedId);
  const check = checkInputText(input);
  const output = prettyJson(step.output);
  const config = prettyJson(step.config);
  const hasConfig = step.config !== null && step.config !== undefined;

  const send = () => {
    if (!check.ok) return;
    tweak.mutate({ stepId: step.id, submissionId, newInput: input }, { onSuccess: onClose });
  };

  // "Publish this" after a dry run: the same follow-up for real, in a new job linked to this one.
  const publish = (kind: "tweak" | "retryStep" | "reprocess") => {
    if (kind === "tweak") send();
    if (kind === "retryStep") retryStep.mutate({ stepId: step.id, submissionId }, { onSuccess: onClose });
    if (kind === "reprocess") reprocess.mutate({ jobId: step.jobId, submissionId }, { onSuccess: onClose });
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        size="lg"
        title={`Step ${step.stepOrder}: ${step.stepName ?? step.pluginName}`}
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <code className="font-mono text-xs">{step.pluginName}</code>
            {step.pluginVersion ? (
              <code className="font-mono text-xs text-muted" title={`sha-256 ${step.pluginVersion}`}>
                version {step.pluginVersion.slice(0, 12)}
              </code>
            ) : null}
            <ProcessingStatusPill status={step.status} />
          </span>
        }
      >
        <Tabs defaultValue="input">
          <TabsList aria-label="Step details">
            <TabsTrigger value="input">Input</TabsTrigger>
            <TabsTrigger value="output">Output</TabsTrigger>
            {hasConfig ? <TabsTrigger value="config">Config</TabsTrigger> : null}
            {step.error ? <TabsTrigger value="error">Error</TabsTrigger> : null}
            <TabsTrigger value="replay">Dry run</TabsTrigger>
          </TabsList>

          <TabsContent value="replay" className="pt-4">
            <ReplayDryRun
              feedId={feedId}
              submissionId={submissionId}
              step={step}
              tweakedInput={check.ok ? input : null}
              onPublish={publish}
              publishing={tweak.isPending || retryStep.isPending || reprocess.isPending}
            />
          </TabsContent>

          <TabsContent value="input" className="flex flex-col gap-3 pt-4">
            <PaneHeader
              label={<label htmlFor={inputId}>Input (JSON, editable)</label>}
              copy={input}
              what="input"
            />
            <Textarea
              id={inputId}
              value={input}
              spellCheck={false}
              placeholder={step.input === null ? "This step has not run yet, so it has no input." : undefined}
              aria-invalid={check.ok || check.message === null ? undefined : true}
              aria-describedby={check.ok || check.message === null ? undefined : `${inputId}-error`}
              onChange={(event) => setInput(event.target.value)}
              className={cn(PANE_HEIGHT, "resize-y font-mono text-xs leading-relaxed")}
            />
            {!check.ok && check.message ? (
              <p id={`${inputId}-error`} role="alert" className="text-sm text-red-700">
                Invalid JSON: {check.message}
              </p>
            ) : null}
            <div className="flex flex-col-reverse gap-3 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-xs text-muted">
                Runs this step again with the input above, then the rest of its branch, in a new job.
              </p>
              <Button
                onClick={send}
                disabled={!check.ok || step.type === "retraction"}
                loading={tweak.isPending}
              >
                <WandSparklesIcon aria-hidden="true" />
                Tweak and Reprocess
              </Button>
            </div>
          </TabsContent>

          <TabsContent value="output" className="flex flex-col gap-3 pt-4">
            <PaneHeader label="Output" copy={output} what="output" />
            <CodePane label="Step output" empty="This step has no output.">
              {output}
            </CodePane>
          </TabsContent>

          {hasConfig ? (
            <TabsContent value="config" className="flex flex-col gap-3 pt-4">
              <PaneHeader label="Config" copy={config} what="config" />
              <CodePane label="Step config">{config}</CodePane>
              <p className="text-xs text-muted">
                {"{{NAME}}"} placeholders are filled from the server's settings when the step runs and never
                shown.
              </p>
            </TabsContent>
          ) : null}

          {step.error ? (
            <TabsContent value="error" className="flex flex-col gap-3 pt-4">
              <PaneHeader label="Error" copy={prettyJson(step.error)} what="error" />
              <dl className="grid gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900 sm:grid-cols-[7rem_1fr]">
                <dt className="font-medium">Message</dt>
                <dd className="break-words whitespace-pre-wrap" data-testid="step-error-message">
                  {step.error.message}
                </dd>
                <dt className="font-medium">Code</dt>
                <dd>
                  <code className="font-mono text-xs">{step.error.code}</code>
                </dd>
                <dt className="font-medium">Retryable</dt>
                <dd>
                  {step.error.retryable
                    ? "Yes: it may pass if retried as it is."
                    : "No: it fails again unless the input, the config or the server's settings change."}
                </dd>
              </dl>
            </TabsContent>
          ) : null}
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

function PaneHeader({ label, copy, what }: { label: ReactNode; copy: string; what: string }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <span className="text-sm font-medium text-ink">{label}</span>
      <CopyButton text={copy} what={what} className="-my-1" />
    </div>
  );
}

/** Read-only JSON in a fixed-height pane that scrolls (and takes focus, so keyboards can scroll it too). */
function CodePane({ label, empty, children }: { label: string; empty?: string; children: string }) {
  return (
    <pre
      role="region"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to scroll by keyboard
      tabIndex={0}
      aria-label={label}
      className={cn(
        PANE_HEIGHT,
        "overflow-auto rounded-md border border-line bg-zinc-50 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-ink [overflow-wrap:anywhere]",
      )}
    >
      {children || <span className="font-sans text-muted">{empty}</span>}
    </pre>
  );
}
