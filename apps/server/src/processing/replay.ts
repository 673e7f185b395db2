import { and, eq } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps } from "../db/schema.ts";
import type { DistributionReceipt, ReplayOf } from "../plugins/types.ts";
import { liveEntryOf } from "../publications/ledger.ts";

/** How far back a recap's re-run looks through its chain of retries for the branch's last publication. */
const MAX_HOPS = 20;

/** True for a step output a dry run wrote (a rendered request, never a publication). */
export function isDryRunOutput(output: unknown): boolean {
  return !!output && typeof output === "object" && (output as { dryRun?: unknown }).dryRun === true;
}

/**
 * The publication live now on a distribution step's branch, which this step edits (or leaves as it is) instead of
 * posting again. For a submission the publish ledger is the truth, whatever job runs — an approval, a retry,
 * reprocess or tweak of an old job or a new one, or a dry run of any of them: the newest entry still published
 * under the branch's key. Only "publish again as a new post" (`republish`) looks for none. A recap has no ledger
 * key of its own, so its re-runs find what their earlier runs published through `retryOfJobId`.
 */
export async function livePublication(
  db: Database,
  job: { kind: string; submissionId: string | null; feedId: string; retryOfJobId: string | null },
  step: { branch: number | null; branchKey: string | null; pluginName: string },
): Promise<ReplayOf | null> {
  if (step.branch === null || job.kind === "republish") return null;
  if (!job.submissionId) return earlierRecapPublication(db, job, { ...step, branch: step.branch });
  const entry = await liveEntryOf(db, job.submissionId, job.feedId, step.branchKey ?? step.pluginName);
  if (!entry) return null;
  return {
    jobId: entry.jobId,
    publicationId: entry.id,
    receipt: (entry.receipt ?? {}) as DistributionReceipt,
  };
}

/** A recap's re-run: the latest successful send of the same branch and plugin in the runs it descends from. */
async function earlierRecapPublication(
  db: Database,
  job: { retryOfJobId: string | null },
  step: { branch: number; pluginName: string },
): Promise<ReplayOf | null> {
  let jobId = job.retryOfJobId;
  for (let hop = 0; jobId && hop < MAX_HOPS; hop++) {
    const [published] = await db
      .select({ output: processingSteps.output })
      .from(processingSteps)
      .where(
        and(
          eq(processingSteps.jobId, jobId),
          eq(processingSteps.branch, step.branch),
          eq(processingSteps.pluginName, step.pluginName),
          eq(processingSteps.type, "distribution"),
          eq(processingSteps.status, "success"),
        ),
      )
      .limit(1);
    if (published?.output && !isDryRunOutput(published.output) && !isSkippedOutput(published.output)) {
      return { jobId, receipt: published.output as DistributionReceipt };
    }
    const [earlier] = await db
      .select({ retryOfJobId: processingJobs.retryOfJobId })
      .from(processingJobs)
      .where(eq(processingJobs.id, jobId));
    jobId = earlier?.retryOfJobId ?? null;
  }
  return null;
}

/** The output of a re-run that left the live publication as it was (its channel cannot edit one). */
export interface SkippedOutput {
  skipped: true;
  message: string;
  alreadyPublished: { jobId: string; publicationId: string | null; reference: unknown };
}

export function isSkippedOutput(output: unknown): boolean {
  return !!output && typeof output === "object" && (output as { skipped?: unknown }).skipped === true;
}

/** What a re-run records when its channel cannot edit the live publication: nothing is sent. */
export function skippedOutput(replay: ReplayOf, channel: string): SkippedOutput {
  const reference = replay.receipt.reference ?? null;
  const where = reference?.url ?? reference?.id;
  return {
    skipped: true,
    message: `Already published${where ? ` (${where})` : ""} by job ${replay.jobId.slice(0, 8)}: ${channel} cannot edit a publication, so this run left it as it is. Use "Publish again as new post" for a second copy.`,
    alreadyPublished: { jobId: replay.jobId, publicationId: replay.publicationId ?? null, reference },
  };
}
