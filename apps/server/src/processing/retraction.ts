import { randomUUID } from "node:crypto";
import { findBuiltinPlugin } from "@curate/core";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps, type publications } from "../db/schema.ts";
import { hydrateSecrets, type SecretSource } from "../plugins/placeholders.ts";
import type { DistributionReceipt, Plugin } from "../plugins/types.ts";
import { PluginError } from "../plugins/types.ts";
import { markPublication, publicationsByIds } from "../publications/ledger.ts";
import { currentTraceParent } from "../telemetry/tracing.ts";
import type { Plan } from "./plan.ts";
import type { RunnerDeps, StepError } from "./shared.ts";
import { observedStep } from "./step-telemetry.ts";
import { boundedJson } from "./values.ts";

type PublicationRow = typeof publications.$inferSelect;
type StepRow = typeof processingSteps.$inferSelect;
type JobRow = typeof processingJobs.$inferSelect;

/** A retraction job has no pipeline: its steps are written with it, one per publication to remove. */
const RETRACTION_PLAN: Plan = { transforms: [], branches: [], entries: [] };

/** The code of a retraction step whose channel cannot take publications back (never retried). */
export const CANNOT_RETRACT = "CANNOT_RETRACT";

/** What a retraction step is given: the ledger entry and where it went. */
interface RetractionInput {
  publicationId: string;
  reference: { kind: string; id: string | null; url: string | null };
}

const label = (plugin: string) => findBuiltinPlugin(plugin)?.label ?? plugin;

/**
 * Asks for the removal of publications (in the caller's transaction): a pending `retraction` job, which the
 * worker relays like any other (decision 0009), and one step per publication, each retryable on its own.
 */
export async function requestRetraction(
  tx: Database,
  request: {
    submissionId: string;
    feedId: string;
    entries: PublicationRow[];
    requestedBy: string;
    retryOfJobId?: string;
  },
): Promise<string> {
  const id = randomUUID();
  await tx.insert(processingJobs).values({
    id,
    kind: "retraction",
    submissionId: request.submissionId,
    feedId: request.feedId,
    status: "pending",
    idempotencyKey: `retraction:${id}`,
    retryOfJobId: request.retryOfJobId ?? null,
    plan: RETRACTION_PLAN,
    requestedBy: request.requestedBy,
    traceParent: currentTraceParent(),
  });
  await tx.insert(processingSteps).values(
    request.entries.map((entry, index) => ({
      id: randomUUID(),
      jobId: id,
      stepOrder: index + 1,
      type: "retraction" as const,
      stage: "distributor" as const,
      branch: entry.branch,
      position: 0,
      pluginName: entry.pluginName,
      stepName: `Retract · ${entry.stepName ?? label(entry.pluginName)}`,
      config: entry.config,
      input: {
        publicationId: entry.id,
        reference: { kind: entry.referenceKind, id: entry.referenceId, url: entry.referenceUrl },
      } satisfies RetractionInput,
    })),
  );
  return id;
}

/** A step starts (again): in flight, its previous outcome cleared, one more attempt counted. */
export async function markStepRunning(db: Database, stepId: string) {
  await db
    .update(processingSteps)
    .set({
      status: "processing",
      output: null,
      error: null,
      attempts: sql`${processingSteps.attempts} + 1`,
      startedAt: sql`now()`,
      completedAt: null,
      updatedAt: sql`now()`,
    })
    .where(eq(processingSteps.id, stepId));
}

/** What the runner lends the retraction: its plugin lookup and its error shape. */
export interface RetractionTools {
  resolve(name: string): Promise<Plugin>;
  stepError(error: unknown): StepError;
}

export interface RetractionOutcomes {
  failed: boolean;
  retryable: StepError[];
}

/**
 * Runs a retraction job's steps: each asks its channel to remove one publication. A step that succeeded is not run
 * again on a resume; one whose channel cannot retract, or that failed for good, stays as it is.
 */
export async function executeRetraction(
  deps: RunnerDeps,
  job: JobRow,
  steps: StepRow[],
  secrets: SecretSource,
  tools: RetractionTools,
): Promise<RetractionOutcomes> {
  const outcome: RetractionOutcomes = { failed: false, retryable: [] };
  const rows = await publicationsByIds(
    deps.db,
    steps.map((step) => (step.input as RetractionInput | null)?.publicationId ?? ""),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const step of steps) {
    if (step.status === "success") continue;
    const earlier = step.error as StepError | null;
    if (step.status === "failed" && earlier && !earlier.retryable) {
      outcome.failed = true;
      continue;
    }
    const entry = byId.get((step.input as RetractionInput | null)?.publicationId ?? "");
    const { error } = await observedStep(deps.telemetry.metrics, job, step, step.pluginName, async () => ({
      error: await runRetractionStep(deps, job, step, entry, secrets, tools),
    }));
    if (error) {
      outcome.failed = true;
      if (error.retryable) outcome.retryable.push(error);
    }
  }
  return outcome;
}

async function runRetractionStep(
  deps: RunnerDeps,
  job: JobRow,
  step: StepRow,
  entry: PublicationRow | undefined,
  secrets: SecretSource,
  tools: RetractionTools,
): Promise<StepError | null> {
  const { db } = deps;
  await markStepRunning(db, step.id);
  const finish = async (
    result: { output: unknown; error: null } | { output: null; error: StepError },
    ledger: { status: "retracted" | "cannot_retract" | "published"; note: string | null } | null,
  ) => {
    await db.transaction(async (tx) => {
      await tx
        .update(processingSteps)
        .set({
          status: result.error ? "failed" : "success",
          output: boundedJson(result.output),
          error: result.error,
          completedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(processingSteps.id, step.id));
      if (entry && ledger) {
        await markPublication(tx, entry.id, { ...ledger, retractionJobId: job.id });
      }
    });
    return result.error;
  };

  if (!entry) {
    return finish(
      {
        output: null,
        error: {
          message: "The publication is no longer in the ledger.",
          code: "PUBLICATION_GONE",
          retryable: false,
        },
      },
      null,
    );
  }
  try {
    const plugin = await tools.resolve(step.pluginName);
    if (plugin.type !== "distributor" || !plugin.retract) {
      const reason = `${label(step.pluginName)} cannot take a publication back; remove it on the channel by hand.`;
      return finish(
        { output: null, error: { message: reason, code: CANNOT_RETRACT, retryable: false } },
        { status: "cannot_retract", note: reason },
      );
    }
    const parsed = plugin.configSchema.safeParse(step.config ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.join(".") || "config"}: ${i.message}`)
        .join("; ");
      throw new PluginError(
        `The publication's config is not valid for ${step.pluginName} any more: ${issues}`,
        {
          code: "CONFIG_INVALID",
        },
      );
    }
    const config = hydrateSecrets(parsed.data, plugin.configSchema, secrets);
    const result = await plugin.retract((entry.receipt ?? {}) as DistributionReceipt, config, {
      signal: AbortSignal.timeout(deps.stepTimeoutMs),
      logger: deps.logger.child({ jobId: job.id, step: step.id, plugin: step.pluginName }),
      feedId: job.feedId,
      submissionId: job.submissionId,
      jobId: job.id,
      idempotencyKey: null,
    });
    if (!result.retracted) {
      return finish(
        { output: null, error: { message: result.reason, code: CANNOT_RETRACT, retryable: false } },
        { status: "cannot_retract", note: result.reason },
      );
    }
    return finish({ output: result, error: null }, { status: "retracted", note: null });
  } catch (thrown) {
    const error = tools.stepError(thrown);
    deps.logger.info(
      { jobId: job.id, step: step.id, plugin: step.pluginName, code: error.code },
      "retraction failed",
    );
    return finish({ output: null, error }, { status: "published", note: error.message });
  }
}
