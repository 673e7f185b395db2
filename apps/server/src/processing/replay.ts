import { and, eq } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps } from "../db/schema.ts";
import type { DistributionReceipt, ReplayOf } from "../plugins/types.ts";

/** How far back a replay looks through a chain of retries for the branch's last publication. */
const MAX_HOPS = 20;

/** True for a step output a dry run wrote (a rendered request, never a publication). */
export function isDryRunOutput(output: unknown): boolean {
  return !!output && typeof output === "object" && (output as { dryRun?: unknown }).dryRun === true;
}

/**
 * What a distributor branch published before, for a job that replays another (reprocess, retry, tweak, or a dry
 * run of one): the latest successful distribution of the same branch and plugin, walking back through the jobs the
 * replay descends from. Null for a first publication, or when the earlier runs never published on this branch.
 */
export async function earlierPublication(
  db: Database,
  job: { retryOfJobId: string | null },
  step: { branch: number | null; pluginName: string },
): Promise<ReplayOf | null> {
  if (step.branch === null) return null;
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
    if (published?.output && !isDryRunOutput(published.output)) {
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
