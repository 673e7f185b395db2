import { randomUUID } from "node:crypto";
import {
  type AcknowledgementKind,
  type AcknowledgementNetwork,
  acknowledgementText,
  acknowledgementWanted,
  isAcknowledgementNetwork,
  PLATFORM_LABELS,
  platformOfKey,
} from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, processingJobs, processingSteps, submissionFeeds } from "../db/schema.ts";
import { consumeLimit } from "../limits/service.ts";
import { PluginError } from "../plugins/types.ts";
import { currentTraceParent } from "../telemetry/tracing.ts";
import type { Plan } from "./plan.ts";
import { markStepRunning } from "./retraction.ts";
import type { Reservations, RunnerDeps, StepError } from "./shared.ts";
import { ACKNOWLEDGE_STEP, type AcknowledgementInput } from "./shared.ts";
import { toStepError } from "./step-error.ts";
import { observedStep } from "./step-telemetry.ts";
import { awaitTurn, holdSlots, type Reservation, reserveSlot, slotKeys } from "./throttle.ts";
import { boundedJson } from "./values.ts";

type StepRow = typeof processingSteps.$inferSelect;
type JobRow = typeof processingJobs.$inferSelect;

/** An acknowledgement has no pipeline: its one step is written with the job. */
const ACKNOWLEDGEMENT_PLAN: Plan = { transforms: [], branches: [], entries: [] };

/** One acknowledgement per (submission, feed, kind): replaying mentions or deciding again never replies twice. */
export function acknowledgementKey(kind: AcknowledgementKind, submissionId: string, feedId: string) {
  return `acknowledgement:${kind}:${submissionId}:${feedId}`;
}

/** The post's id on its network from its stored key (`bluesky:at://…` → `at://…`; X keys are bare). */
function idOnNetwork(key: string, network: AcknowledgementNetwork): string {
  return network === "twitter" ? key : key.slice(network.length + 1);
}

async function insertAcknowledgementJob(
  tx: Database,
  values: {
    submissionId: string;
    feedId: string;
    key: string;
    input: AcknowledgementInput;
    notBefore?: Date | null;
    retryOfJobId?: string;
    requestedBy?: string;
  },
): Promise<string | null> {
  const [job] = await tx
    .insert(processingJobs)
    .values({
      id: randomUUID(),
      kind: "acknowledgement",
      submissionId: values.submissionId,
      feedId: values.feedId,
      status: "pending",
      idempotencyKey: values.key,
      retryOfJobId: values.retryOfJobId ?? null,
      requestedBy: values.requestedBy ?? null,
      plan: ACKNOWLEDGEMENT_PLAN,
      notBefore: values.notBefore ?? null,
      traceParent: currentTraceParent(),
    })
    .onConflictDoNothing({ target: processingJobs.idempotencyKey })
    .returning({ id: processingJobs.id });
  if (!job) return null;
  await tx.insert(processingSteps).values({
    id: randomUUID(),
    jobId: job.id,
    stepOrder: 1,
    type: "distribution",
    stage: "distributor",
    branch: 0,
    position: 0,
    pluginName: ACKNOWLEDGE_STEP,
    stepName: `${ACKNOWLEDGE_STEP} · ${PLATFORM_LABELS[values.input.network]}`,
    config: null,
    input: values.input,
  });
  return job.id;
}

/**
 * Asks for the bot's reply to the curator's post (in the caller's transaction) when the feed wants this
 * acknowledgement on that network: a pending `acknowledgement` job with one `acknowledge` step, which the worker
 * runs like any job. An approval's reply waits out the approval's undo window (`notBefore`). The feed's config and
 * the curator's post may be handed over by a caller that has them (intake); otherwise they are read. Returns the
 * job's id, or null when none is wanted or one was already asked for.
 */
export async function requestAcknowledgement(
  tx: Database,
  request: {
    submissionId: string;
    feedId: string;
    kind: AcknowledgementKind;
    config?: unknown;
    curatorPostKey?: string | null;
    notBefore?: Date | null;
  },
): Promise<string | null> {
  let { config, curatorPostKey } = request;
  if (config === undefined || curatorPostKey === undefined) {
    const [row] = await tx
      .select({ config: feeds.config, curatorPostKey: submissionFeeds.curatorTweetId })
      .from(submissionFeeds)
      .innerJoin(feeds, eq(feeds.id, submissionFeeds.feedId))
      .where(
        and(
          eq(submissionFeeds.submissionId, request.submissionId),
          eq(submissionFeeds.feedId, request.feedId),
        ),
      );
    if (!row) return null;
    config = row.config;
    curatorPostKey = row.curatorPostKey;
  }
  // A post a feed source found has no curator's post: there is no one to answer.
  if (!curatorPostKey) return null;
  const network = platformOfKey(curatorPostKey);
  if (!isAcknowledgementNetwork(network) || !acknowledgementWanted(config, network, request.kind))
    return null;
  return insertAcknowledgementJob(tx, {
    submissionId: request.submissionId,
    feedId: request.feedId,
    key: acknowledgementKey(request.kind, request.submissionId, request.feedId),
    notBefore: request.notBefore,
    input: {
      network,
      kind: request.kind,
      replyTo: idOnNetwork(curatorPostKey, network),
      text: acknowledgementText(request.kind, request.feedId),
    },
  });
}

/** Retry: the failed acknowledgement again, in a new job linked to the one that failed. */
export async function requestAcknowledgementRetry(
  tx: Database,
  job: JobRow,
  step: StepRow,
  requestedBy: string,
): Promise<string> {
  const id = randomUUID();
  const created = await insertAcknowledgementJob(tx, {
    submissionId: job.submissionId ?? "",
    feedId: job.feedId,
    key: `acknowledgement-retry:${job.id}:${id}`,
    input: step.input as AcknowledgementInput,
    retryOfJobId: job.id,
    requestedBy,
  });
  return created ?? id;
}

export interface AcknowledgementOutcome {
  failed: boolean;
  retryable: StepError[];
  deferred: Reservations;
}

/**
 * Runs an acknowledgement job's step: the per-feed hourly cap, the network bot's turn (GCRA slots shared by every
 * worker), then the reply. A wait longer than a moment sends the job back to the queue holding its turn.
 */
export async function executeAcknowledgement(
  deps: RunnerDeps,
  job: JobRow,
  steps: StepRow[],
  reservations: Reservations,
): Promise<AcknowledgementOutcome> {
  const outcome: AcknowledgementOutcome = { failed: false, retryable: [], deferred: {} };
  for (const step of steps) {
    if (step.status === "success") continue;
    const earlier = step.error as StepError | null;
    if (step.status === "failed" && earlier && !earlier.retryable) {
      outcome.failed = true;
      continue;
    }
    const network = (step.input as { network?: string } | null)?.network ?? null;
    const result = await observedStep(deps.telemetry.metrics, job, step, network, () =>
      runAcknowledgementStep(deps, job, step, reservations[step.id]),
    );
    if (result.deferred) outcome.deferred[step.id] = result.deferred;
    if (result.error) {
      outcome.failed = true;
      if (result.error.retryable) outcome.retryable.push(result.error);
    }
  }
  return outcome;
}

async function stillApproved(db: Database, job: JobRow): Promise<boolean> {
  const [link] = await db
    .select({ status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(
      and(eq(submissionFeeds.submissionId, job.submissionId ?? ""), eq(submissionFeeds.feedId, job.feedId)),
    );
  return link?.status === "approved";
}

async function runAcknowledgementStep(
  deps: RunnerDeps,
  job: JobRow,
  step: StepRow,
  reservation: Reservation | undefined,
): Promise<{ error?: StepError; deferred?: Reservation }> {
  const { db } = deps;
  const input = step.input as AcknowledgementInput;
  await markStepRunning(db, step.id);
  const finish = async (output: unknown, error: StepError | null) => {
    await db
      .update(processingSteps)
      .set({
        status: error ? "failed" : "success",
        output: boundedJson(output),
        error,
        completedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(processingSteps.id, step.id));
    return error ? { error } : {};
  };

  const settings = deps.acknowledgements;
  if (!settings) {
    return finish(null, {
      message: "This worker sends no acknowledgements (it was started without a sender).",
      code: "ACK_NOT_CONFIGURED",
      retryable: false,
    });
  }
  if (input.kind === "approved" && !(await stillApproved(db, job))) {
    // Undone or retracted before the reply went out: saying "Approved" now would be false.
    return finish({ sent: false, reason: "The post is no longer approved in this feed." }, null);
  }
  const rules =
    settings.minIntervalMs > 0 ? [{ key: input.network, intervalMs: settings.minIntervalMs }] : [];
  const heldKeys = slotKeys(ACKNOWLEDGE_STEP, [{ key: input.network, intervalMs: settings.minIntervalMs }]);
  try {
    if (!reservation) {
      const cap = await consumeLimit(
        db,
        `acknowledgements:${job.feedId}`,
        settings.perFeedPerHour,
        3_600_000,
      );
      if (!cap.allowed) {
        throw new PluginError(
          `This feed has had ${settings.perFeedPerHour} acknowledgements this hour, the most it may; this one was not sent.`,
          { code: "ACK_LIMIT_REACHED" },
        );
      }
    }
    if (rules.length) {
      const turn = reservation ?? (await reserveSlot(db, ACKNOWLEDGE_STEP, rules));
      const deferred = await awaitTurn(db, step.id, turn, AbortSignal.timeout(deps.stepTimeoutMs));
      if (deferred) return { deferred };
    }
    const sent = await settings.sender.send(
      input,
      acknowledgementKey(input.kind, job.submissionId ?? "", job.feedId),
      AbortSignal.timeout(deps.stepTimeoutMs),
    );
    return finish({ sent: true, network: input.network, replyTo: input.replyTo, reply: sent }, null);
  } catch (thrown) {
    const error = toStepError(thrown);
    // The network asked its bot to wait: every acknowledgement on it waits too instead of collecting 429s.
    if (error.retryAfterMs) await holdSlots(db, heldKeys, error.retryAfterMs);
    deps.logger.info({ jobId: job.id, step: step.id, code: error.code }, "acknowledgement failed");
    return finish(null, error);
  }
}
