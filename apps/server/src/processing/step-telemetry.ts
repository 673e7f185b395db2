import type { processingJobs, processingSteps } from "../db/schema.ts";
import { channelLabel, type Metrics, pluginLabel } from "../telemetry/metrics.ts";
import { SpanStatusCode, withSpan } from "../telemetry/tracing.ts";
import { JOB_KINDS, type StepError } from "./shared.ts";

type JobRow = typeof processingJobs.$inferSelect;
type StepRow = typeof processingSteps.$inferSelect;

/**
 * Runs one step inside its span (a child of the job's) and counts its duration and outcome in
 * `curate_step_duration_seconds`, by plugin and channel. A step only waiting for its channel's turn is not counted,
 * nor is a dry run (it sends nothing).
 */
export async function observedStep<T extends { error?: StepError | null; deferred?: unknown }>(
  metrics: Metrics,
  job: JobRow,
  row: StepRow,
  channel: string | null,
  run: () => Promise<T>,
): Promise<T> {
  const began = performance.now();
  const result = await withSpan(
    "processing.step",
    {
      "curate.job.id": job.id,
      "curate.step.id": row.id,
      "curate.step.plugin": pluginLabel(row.pluginName),
      "curate.step.channel": channelLabel(channel),
      "curate.step.type": row.type,
    },
    async (span) => {
      const outcome = await run();
      if (outcome.error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error.message });
        span.setAttribute("curate.step.error_code", outcome.error.code);
      }
      return outcome;
    },
  );
  if (!result.deferred && JOB_KINDS[job.kind].sends) {
    const outcome = !result.error ? "success" : result.error.retryable ? "retry" : "failed";
    metrics.observeStep(row.pluginName, channel, outcome, (performance.now() - began) / 1000);
  }
  return result;
}
