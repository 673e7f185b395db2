import type { DryRunResult } from "@curate/core";
import type { Plan } from "./plan.ts";

/** A dry-run job to store and run: a submission in a feed, with the plan it replays (null: the feed's own). */
export interface DryRunJob {
  feedId: string;
  submissionId: string;
  plan: Plan | null;
  /** The job a replay's dry run stands for, so the step dialog can diff the two. */
  retryOfJobId?: string | null;
  requestedBy: string;
  note: string;
}

/**
 * What a request may ask of the pipeline: one dry run, run to its end within the request. Routes and their
 * services depend on this alone, so the HTTP floor never reaches the runner, its plugins or their SDKs; the
 * composition hands in the runner's implementation (`dryRunPort` in dry-run.ts).
 */
export interface DryRunPort {
  run(job: DryRunJob): Promise<DryRunResult>;
}
