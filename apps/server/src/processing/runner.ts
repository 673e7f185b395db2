import { createHash, randomUUID } from "node:crypto";
import {
  branchKeys,
  type DryRunOutcome,
  type FeedConfig,
  findBuiltinPlugin,
  type ProcessingJobStatus,
} from "@curate/core";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, processingJobs, processingSteps, submissionFeeds } from "../db/schema.ts";
import { hydrateSecrets, type SecretSource } from "../plugins/placeholders.ts";
import {
  CREDENTIALS_REJECTED,
  type Plugin,
  PluginError,
  type RenderedDistribution,
  type ReplayOf,
} from "../plugins/types.ts";
import { recordPublication } from "../publications/ledger.ts";
import { SpanKind, withRootSpan } from "../telemetry/tracing.ts";
import { executeAcknowledgement } from "./acknowledgements.ts";
import { submissionInput } from "./input.ts";
import { channelKeyOf, findChannelPause, pauseChannel, pausedStepError } from "./pauses.ts";
import {
  chainSteps,
  emptyPlanReason,
  type Plan,
  type PlanEntry,
  planFromConfig,
  runsPerItem,
  stageOf,
  stepName,
} from "./plan.ts";
import { recapPlan } from "./recaps.ts";
import { livePublication, skippedOutput } from "./replay.ts";
import { executeRetraction } from "./retraction.ts";
import { markScheduledSent, scheduledTurn } from "./schedule.ts";
import type { Reservations, RunnerDeps, RunResult, StepError } from "./shared.ts";
import { JOB_KINDS, stepChannel } from "./shared.ts";
import { toStepError } from "./step-error.ts";
import { observedStep } from "./step-telemetry.ts";
import { awaitTurn, holdSlots, type Reservation, reserveSlot, slotKeys } from "./throttle.ts";
import { boundedJson } from "./values.ts";

type StepRow = typeof processingSteps.$inferSelect;
type JobRow = typeof processingJobs.$inferSelect;

/**
 * How outputs flow (docs/plugins.md): a transform's output that is an object merges into the running object
 * (its keys win); any other output (text, a list) replaces it. `undefined` leaves it as it was.
 */
export function mergeOutput(running: unknown, output: unknown): unknown {
  if (output === undefined) return running;
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  return isRecord(running) && isRecord(output) ? { ...running, ...output } : output;
}

/** Stable for (publication, branch, distributor): the same across resumes and retries of one publication. */
export function distributionKey(publicationKey: string, branch: number, plugin: string): string {
  return createHash("sha256").update(`${publicationKey}\u0000${branch}\u0000${plugin}`).digest("hex");
}

/**
 * Takes the job for this worker: only a pending job, or one whose previous holder's lease ran out (a worker that
 * died). Two deliveries of the same job can never both run it.
 */
async function claim(db: Database, jobId: string, leaseMs: number): Promise<JobRow | null> {
  const [job] = await db
    .update(processingJobs)
    .set({
      status: "processing",
      attempts: sql`${processingJobs.attempts} + 1`,
      startedAt: sql`coalesce(${processingJobs.startedAt}, now())`,
      leaseUntil: sql`now() + (${leaseMs} * interval '1 millisecond')`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(processingJobs.id, jobId),
        sql`(${processingJobs.status} = 'pending'
          or (${processingJobs.status} = 'processing' and coalesce(${processingJobs.leaseUntil}, now()) <= now()))`,
      ),
    )
    .returning();
  return job ?? null;
}

async function finish(db: Database, jobId: string, status: ProcessingJobStatus, note?: string | null) {
  await db
    .update(processingJobs)
    .set({
      status,
      completedAt: sql`now()`,
      leaseUntil: null,
      updatedAt: sql`now()`,
      ...(note === undefined ? {} : { note }),
    })
    .where(eq(processingJobs.id, jobId));
}

/** The plan of a job that has none yet (approvals, reprocesses): the feed's latest config and the submission. */
async function snapshotPlan(db: Database, job: JobRow): Promise<{ plan: Plan | null; note: string | null }> {
  if (job.recapId) return recapPlan(db, job);
  const [feed] = await db.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, job.feedId));
  if (!feed) return { plan: null, note: "The feed no longer exists." };
  const config = feed.config as FeedConfig;
  const empty = emptyPlanReason(config);
  if (empty) return { plan: null, note: empty };
  if (!job.submissionId) return { plan: null, note: "This job has no submission to process." };
  const input = await submissionInput(db, job.submissionId, job.feedId);
  if (!input) return { plan: null, note: "The submission is no longer in this feed." };
  return { plan: planFromConfig(config, input), note: null };
}

/**
 * Why nothing of a quarantined feed runs (feeds/quarantine.ts), or null: its config, and so the plan a job copied
 * from it, may hold a raw credential.
 */
async function quarantineNote(db: Database, feedId: string): Promise<string | null> {
  const [feed] = await db.select({ findings: feeds.secretFindings }).from(feeds).where(eq(feeds.id, feedId));
  if (!feed?.findings?.length) return null;
  return `Not run: the feed's config holds what looks like a raw credential (${feed.findings
    .slice(0, 10)
    .map((finding) => finding.path)
    .join(", ")}). Its owners must replace it with a {{PLACEHOLDER}} and save; then reprocess this job.`;
}

/** Every step an entry reaches: the rest of its chain and, for the global chain, every branch after it. */
function reachedSteps(plan: Plan): Array<{ chain: "global" | number; position: number }> {
  const reached = new Map<string, { chain: "global" | number; position: number }>();
  const addChain = (chain: "global" | number, from: number) => {
    chainSteps(plan, chain).forEach((_, position) => {
      if (position >= from) reached.set(`${chain}:${position}`, { chain, position });
    });
  };
  for (const entry of plan.entries) {
    addChain(entry.chain, entry.from);
    if (entry.chain === "global") for (const branch of plan.branches) addChain(branch.index, 0);
  }
  const rank = (c: "global" | number) => (c === "global" ? -1 : c);
  return [...reached.values()].sort((a, b) => rank(a.chain) - rank(b.chain) || a.position - b.position);
}

async function stillApproved(tx: Database, job: JobRow): Promise<boolean> {
  const [link] = await tx
    .select({ status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(
      and(eq(submissionFeeds.submissionId, job.submissionId ?? ""), eq(submissionFeeds.feedId, job.feedId)),
    );
  return link?.status === "approved";
}

/** Writes the plan and its step rows once, the first time a job runs (in the caller's transaction). */
async function prepareSteps(tx: Database, job: JobRow, plan: Plan): Promise<StepRow[]> {
  const reached = reachedSteps(plan);
  const keys = branchKeys(plan.branches.map((branch) => branch.distributor));
  if (!job.plan) {
    await tx.update(processingJobs).set({ plan, updatedAt: sql`now()` }).where(eq(processingJobs.id, job.id));
  }
  if (reached.length === 0) return [];
  return tx
    .insert(processingSteps)
    .values(
      reached.map(({ chain, position }, order) => {
        const step = chainSteps(plan, chain)[position];
        const isDistribution = chain !== "global" && position === chainSteps(plan, chain).length - 1;
        return {
          id: randomUUID(),
          jobId: job.id,
          stepOrder: order + 1,
          type: isDistribution ? ("distribution" as const) : ("transformation" as const),
          stage: stageOf(plan, chain, position),
          branch: chain === "global" ? null : chain,
          branchKey: chain === "global" ? null : (keys[chain] ?? null),
          position,
          pluginName: step.plugin,
          stepName: stepName(plan, chain, position),
          config: step.config,
          idempotencyKey:
            isDistribution && job.publicationKey
              ? distributionKey(job.publicationKey, chain as number, step.plugin)
              : null,
        };
      }),
    )
    .returning();
}

/**
 * What a distribution does with the branch's live publication: edit it where the channel rendered an edit, leave
 * it (skip) where it cannot, or post a new one when nothing is live.
 */
function outcomeOf(rendered: RenderedDistribution, replay: ReplayOf | null): DryRunOutcome {
  if (!replay) return "new";
  return rendered.edits ? "edit" : "skip";
}

/** A dry run's distribution output: the request the channel would get, and what it does with the live publication. */
function dryRunOutput(rendered: RenderedDistribution, replay: ReplayOf | null) {
  return {
    dryRun: true,
    action: rendered.action,
    request: rendered.request,
    ...(rendered.shown ? { shown: rendered.shown } : {}),
    outcome: outcomeOf(rendered, replay),
    ...(replay
      ? {
          replaces: {
            jobId: replay.jobId,
            ...(replay.publicationId ? { publicationId: replay.publicationId } : {}),
            reference: replay.receipt.reference ?? null,
          },
        }
      : {}),
  };
}

/** Runs `task` for each item with at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  });
  await Promise.all(workers);
}

interface ChainOutcome {
  value: unknown;
  failed: StepError | null;
}

/**
 * Runs one processing job to its end, or until a retryable failure asks for a later attempt. A job resumed after
 * a crash or a retryable failure skips the steps that already succeeded (using their stored outputs) and runs
 * again the one that was in flight or failed: at-least-once per step, never a succeeded step twice.
 */
type Started =
  | { kind: "run"; job: JobRow; plan: Plan; steps: StepRow[] }
  | { kind: "done"; result: RunResult };

/**
 * Claims the job and, the first time, snapshots its plan and writes its step rows — in one transaction, so a job
 * is either untouched or claimed with everything it needs to run.
 */
async function startJob(db: Database, jobId: string, leaseMs: number): Promise<Started> {
  return db.transaction(async (tx) => {
    const job = await claim(tx, jobId, leaseMs);
    if (!job) {
      const [current] = await tx
        .select({ status: processingJobs.status })
        .from(processingJobs)
        .where(eq(processingJobs.id, jobId));
      if (!current) return { kind: "done", result: { kind: "skipped", reason: "missing" } };
      return {
        kind: "done",
        result: { kind: "skipped", reason: current.status === "processing" ? "held" : "finished" },
      };
    }
    if (JOB_KINDS[job.kind].publishesPost && job.submissionId && !(await stillApproved(tx, job))) {
      // Retracted (or otherwise no longer approved) since this job was asked for: nothing may be published.
      await finish(
        tx,
        jobId,
        "cancelled",
        "The post is no longer approved in this feed: nothing was published.",
      );
      return { kind: "done", result: { kind: "finished", status: "cancelled", jobKind: job.kind } };
    }
    const quarantined = await quarantineNote(tx, job.feedId);
    if (quarantined) {
      await finish(tx, jobId, "failed", quarantined);
      return { kind: "done", result: { kind: "finished", status: "failed", jobKind: job.kind } };
    }
    let plan = job.plan as Plan | null;
    if (!plan) {
      const snapshot = await snapshotPlan(tx, job);
      if (!snapshot.plan) {
        await finish(tx, jobId, "completed", snapshot.note);
        return { kind: "done", result: { kind: "finished", status: "completed", jobKind: job.kind } };
      }
      plan = snapshot.plan;
    }
    let steps = await tx
      .select()
      .from(processingSteps)
      .where(eq(processingSteps.jobId, jobId))
      .orderBy(asc(processingSteps.stepOrder));
    if (steps.length === 0) steps = await prepareSteps(tx, job, plan);
    return { kind: "run", job, plan, steps };
  });
}

export async function runProcessingJob(
  deps: RunnerDeps,
  jobId: string,
  options: { lastChance?: boolean; reservations?: Reservations } = {},
): Promise<RunResult> {
  const started = await startJob(deps.db, jobId, deps.leaseMs);
  if (started.kind === "done") return started.result;
  const { job } = started;
  // The job continues the trace of whatever asked for it (an HTTP request, a mention poll), across processes.
  return withRootSpan(
    deps.telemetry.tracer,
    "processing.job",
    {
      "curate.job.id": job.id,
      "curate.job.kind": job.kind,
      "curate.job.attempt": job.attempts,
      "curate.feed.id": job.feedId,
    },
    async (span) => {
      const result = await runStarted(deps, started, options);
      span.setAttribute("curate.job.result", result.kind === "finished" ? result.status : result.kind);
      return result;
    },
    { kind: SpanKind.CONSUMER, traceParent: job.traceParent },
  );
}

async function runStarted(
  deps: RunnerDeps,
  { job, plan, steps }: Extract<Started, { kind: "run" }>,
  options: { lastChance?: boolean; reservations?: Reservations },
): Promise<RunResult> {
  const { db, logger } = deps;
  const jobId = job.id;
  const renew = setInterval(
    () => {
      db.update(processingJobs)
        .set({ leaseUntil: sql`now() + (${deps.leaseMs} * interval '1 millisecond')` })
        .where(and(eq(processingJobs.id, jobId), eq(processingJobs.status, "processing")))
        .catch((error) => logger.warn({ err: error, jobId }, "could not renew a job's lease"));
    },
    Math.max(1000, Math.floor(deps.leaseMs / 3)),
  );
  renew.unref();
  try {
    const secrets = await deps.secretsFor(job.feedId);
    const finalAttempt = job.attempts >= deps.maxAttempts || options.lastChance === true;
    const runs = JOB_KINDS[job.kind].runs;
    const outcome =
      runs === "retraction"
        ? await retractionOutcome(deps, job, steps, secrets)
        : runs === "acknowledgement"
          ? await acknowledgementOutcome(deps, job, steps, options.reservations ?? {})
          : await executePlan(deps, job, plan, steps, secrets, options.reservations ?? {});
    const waiting = Object.values(outcome.deferred);
    const failedRetryably = outcome.retryable.length > 0 && !finalAttempt;
    const parked = Object.values(outcome.parked);
    if (!failedRetryably && waiting.length === 0 && parked.length > 0) {
      // Waiting for a slot is not an attempt either. The outbox holds the job until its earliest slot (the same
      // wait as an undo window's), so a re-plan or "publish now" only has to move `not_before`.
      const clock = deps.scheduleClock ?? Date.now;
      const now = clock();
      const untilMs = Math.max(0, Math.min(...parked) - now);
      // Read from the line as it is now: a "publish now" or re-plan committed while this run went on counts.
      const earliest = sql`(select min(case when s.publish_now then to_timestamp(0) else s.planned_at end)
        from scheduled_sends s where s.job_id = ${jobId} and s.status = 'waiting')`;
      await db
        .update(processingJobs)
        .set({
          status: "pending",
          leaseUntil: null,
          queuedAt: null,
          notBefore: sql`now() + coalesce(greatest(0, extract(epoch from (${earliest} - to_timestamp(${now / 1000}))) * 1000),
            ${untilMs}) * interval '1 millisecond'`,
          parkings: sql`${processingJobs.parkings} + 1`,
          attempts: sql`greatest(0, ${processingJobs.attempts} - 1)`,
          updatedAt: sql`now()`,
        })
        .where(eq(processingJobs.id, jobId));
      return { kind: "parked", until: Date.now() + untilMs };
    }
    if (failedRetryably || waiting.length > 0) {
      await db
        .update(processingJobs)
        .set({
          status: "pending",
          leaseUntil: null,
          updatedAt: sql`now()`,
          // Waiting for a channel's turn is not a failed attempt.
          ...(failedRetryably ? {} : { attempts: sql`greatest(0, ${processingJobs.attempts} - 1)` }),
        })
        .where(eq(processingJobs.id, jobId));
      const untilTurn = waiting.length ? Math.min(...waiting.map((r) => r.at)) - Date.now() : 0;
      return {
        kind: "retry-later",
        reason: failedRetryably
          ? outcome.retryable.map((e) => e.message).join("; ")
          : "waiting for the channel's turn",
        attempts: failedRetryably ? job.attempts : 0,
        retryAfterMs: Math.max(0, untilTurn, ...outcome.retryable.map((e) => e.retryAfterMs ?? 0)),
        reservations: outcome.deferred,
      };
    }
    const status: ProcessingJobStatus = outcome.globalFailed
      ? "failed"
      : outcome.branchFailed
        ? "completed_with_errors"
        : "completed";
    await finish(db, jobId, status);
    return { kind: "finished", status, jobKind: job.kind };
  } finally {
    clearInterval(renew);
  }
}

interface PlanOutcome {
  globalFailed: boolean;
  branchFailed: boolean;
  retryable: StepError[];
  /** Distributions waiting for their channel's turn, by step id. */
  deferred: Reservations;
  /** Distributions waiting for their scheduled slot, by step id: when (by the schedule's clock). */
  parked: Record<string, number>;
}

/** A retraction job's steps (processing/retraction.ts), its outcome told as a plan's: each step is a branch. */
async function retractionOutcome(
  deps: RunnerDeps,
  job: JobRow,
  steps: StepRow[],
  secrets: SecretSource,
): Promise<PlanOutcome> {
  const outcome = await executeRetraction(deps, job, steps, secrets, {
    resolve: (name) => resolvePlugin(deps, name, "distribution"),
    stepError: toStepError,
  });
  return {
    globalFailed: false,
    branchFailed: outcome.failed,
    retryable: outcome.retryable,
    deferred: {},
    parked: {},
  };
}

/** An acknowledgement job's one step (processing/acknowledgements.ts), its outcome told as a branch's. */
async function acknowledgementOutcome(
  deps: RunnerDeps,
  job: JobRow,
  steps: StepRow[],
  reservations: Reservations,
): Promise<PlanOutcome> {
  const outcome = await executeAcknowledgement(deps, job, steps, reservations);
  return {
    globalFailed: false,
    branchFailed: outcome.failed,
    retryable: outcome.retryable,
    deferred: outcome.deferred,
    parked: {},
  };
}

async function executePlan(
  deps: RunnerDeps,
  job: JobRow,
  plan: Plan,
  steps: StepRow[],
  secrets: SecretSource,
  reservations: Reservations,
): Promise<PlanOutcome> {
  const outcome: PlanOutcome = {
    globalFailed: false,
    branchFailed: false,
    retryable: [],
    deferred: {},
    parked: {},
  };
  const stepAt = (chain: "global" | number, position: number) =>
    steps.find(
      (s) => (chain === "global" ? s.branch === null : s.branch === chain) && s.position === position,
    );
  const note = (failure: StepError | null, chain: "global" | number) => {
    if (!failure) return;
    if (chain === "global") outcome.globalFailed = true;
    else outcome.branchFailed = true;
    if (failure.retryable) outcome.retryable.push(failure);
  };

  const runChain = async (chain: "global" | number, entry: PlanEntry): Promise<ChainOutcome> => {
    const chainPlan = chainSteps(plan, chain);
    let value = entry.input;
    let pauseChecked = chain === "global";
    for (let position = entry.from; position < chainPlan.length; position++) {
      const row = stepAt(chain, position);
      if (!row) continue;
      if (row.status === "success") {
        value = mergeOutput(row.input, row.output);
        continue;
      }
      // A failure that waiting cannot fix stays as it is when the job is retried for another branch's sake.
      const earlier = row.error as StepError | null;
      if (row.status === "failed" && earlier && !earlier.retryable) return { value, failed: earlier };
      if (!pauseChecked && JOB_KINDS[job.kind].sends) {
        // A branch whose channel refused the feed's credentials is held before it spends anything (AI calls).
        pauseChecked = true;
        const held = await holdIfPaused(deps, job, plan.branches[chain as number].distributor, row, value);
        if (held) return { value, failed: held };
      }
      const channel = stepChannel(
        row.pluginName,
        row.type,
        chain === "global" ? null : plan.branches[chain].distributor.plugin,
      );
      const result = await observedStep(deps.telemetry.metrics, job, row, channel, () =>
        runStep(deps, job, row, value, secrets, reservations[row.id], runsPerItem(plan, chain, position)),
      );
      if (result.deferred) {
        outcome.deferred[row.id] = result.deferred;
        return { value, failed: null };
      }
      if (result.parkedUntil !== undefined) {
        outcome.parked[row.id] = result.parkedUntil;
        return { value, failed: null };
      }
      if (result.error) return { value, failed: result.error };
      value = mergeOutput(value, result.output);
    }
    return { value, failed: null };
  };

  const runBranches = async (input: unknown) => {
    await eachLimited(plan.branches, deps.branchConcurrency, async (branch) => {
      const { failed } = await runChain(branch.index, { chain: branch.index, from: 0, input });
      note(failed, branch.index);
    });
  };

  for (const entry of plan.entries) {
    if (entry.chain === "global") {
      const global = await runChain("global", entry);
      note(global.failed, "global");
      if (!global.failed) await runBranches(global.value);
    } else {
      const { failed } = await runChain(entry.chain, entry);
      note(failed, entry.chain);
    }
  }
  return outcome;
}

async function resolvePlugin(
  deps: RunnerDeps,
  name: string,
  type: StepRow["type"],
): Promise<Plugin & { version?: string }> {
  // A built-in's name, alias or short name is answered by the built-ins alone: a registration can never shadow one
  // (decision 0022).
  const plugin = findBuiltinPlugin(name)
    ? await deps.registry.resolve(name)
    : ((await deps.registry.resolve(name)) ?? (await deps.externalPlugins?.resolve(name)) ?? null);
  if (!plugin) {
    throw new PluginError(
      `No plugin named "${name}" is known to this server. Check the name in the feed's config.`,
      {
        code: "UNKNOWN_PLUGIN",
      },
    );
  }
  const wanted = type === "transformation" ? "transformer" : "distributor";
  if (plugin.type !== wanted) {
    throw new PluginError(`"${name}" is a ${plugin.type}, but this step needs a ${wanted}.`, {
      code: "WRONG_PLUGIN_TYPE",
    });
  }
  return plugin;
}

/** Writes a held step (its input kept for the resume) when the branch's channel is paused; null otherwise. */
async function holdIfPaused(
  deps: RunnerDeps,
  job: JobRow,
  distributor: { plugin: string; config: unknown },
  row: StepRow,
  input: unknown,
): Promise<StepError | null> {
  const channelKey = channelKeyOf(distributor.plugin, distributor.config);
  const pause = await findChannelPause(deps.db, job.feedId, channelKey);
  if (!pause) return null;
  const error: StepError = { ...pausedStepError(pause), channelKey };
  await deps.db
    .update(processingSteps)
    .set({
      status: "failed",
      input: boundedJson(input),
      output: null,
      error,
      startedAt: sql`now()`,
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(processingSteps.id, row.id));
  return error;
}

async function runStep(
  deps: RunnerDeps,
  job: JobRow,
  row: StepRow,
  input: unknown,
  secrets: SecretSource,
  reservation: Reservation | undefined,
  perItem = false,
): Promise<{ output?: unknown; error?: StepError; deferred?: Reservation; parkedUntil?: number }> {
  const { db } = deps;
  const storedInput = boundedJson(input);
  const startedAt = new Date();
  // A plugin whose code cannot load is no local one: its step then fails below, where the error is recorded.
  const known = await deps.registry.resolve(row.pluginName).catch(() => null);
  // A quick local transform (no I/O, no side effect) is written once when it ends: were the worker to die mid-step,
  // running it again changes nothing. Anything else is marked in flight first, so a resume knows it may repeat.
  if (!known?.local) {
    await db
      .update(processingSteps)
      .set({
        status: "processing",
        input: storedInput,
        output: null,
        error: null,
        attempts: sql`${processingSteps.attempts} + 1`,
        startedAt,
        completedAt: null,
        updatedAt: sql`now()`,
      })
      .where(eq(processingSteps.id, row.id));
  }
  const written = known?.local
    ? { input: storedInput, attempts: sql`${processingSteps.attempts} + 1`, startedAt }
    : {};
  let heldKeys: string[] = [];
  let pluginVersion: string | null = null;
  let sent: { replay: ReplayOf | null; edits: boolean } | null = null;
  try {
    const plugin = await resolvePlugin(deps, row.pluginName, row.type);
    pluginVersion = plugin.version ?? null;
    const parsed = plugin.configSchema.safeParse(row.config ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.join(".") || "config"}: ${i.message}`)
        .join("; ");
      throw new PluginError(`The step's config is not valid for ${row.pluginName}: ${issues}`, {
        code: "CONFIG_INVALID",
      });
    }
    const config = hydrateSecrets(parsed.data, plugin.configSchema, secrets);
    const signal = AbortSignal.timeout(deps.stepTimeoutMs);
    const replay = plugin.type === "distributor" ? await livePublication(db, job, row) : null;
    const context = {
      signal,
      logger: deps.logger.child({ jobId: job.id, step: row.id, plugin: row.pluginName }),
      feedId: job.feedId,
      submissionId: job.submissionId,
      jobId: job.id,
      idempotencyKey: row.idempotencyKey,
      ...(replay ? { replay } : {}),
    };
    let output: unknown;
    if (plugin.type === "transformer" && perItem) {
      // A recap's per-item transform: each item of the digest through the plugin; outputs merge into their item.
      const items = (input as { items?: unknown } | null)?.items;
      const mapped: unknown[] = [];
      for (const item of Array.isArray(items) ? items : []) {
        mapped.push(mergeOutput(item, await plugin.transform(item, config, context)));
      }
      output = { items: mapped };
    } else if (plugin.type === "transformer") {
      output = await plugin.transform(input, config, context);
    } else if (!JOB_KINDS[job.kind].sends) {
      // A dry run renders what the channel would receive and sends nothing (decision 0015).
      const rendered = await plugin.render(input, config, context);
      output = dryRunOutput(rendered, replay);
    } else {
      const rendered = await plugin.render(input, config, context);
      if (replay && outcomeOf(rendered, replay) === "skip") {
        // The channel cannot edit what is live: a re-run never posts a second copy behind the moderator's back.
        output = skippedOutput(replay, row.stepName ?? row.pluginName);
      } else {
        // A new post on a scheduled channel waits for its slot; an edit of what is live does not (decision 0036).
        const turn = replay
          ? ({ kind: "send" } as const)
          : await scheduledTurn(db, deps.scheduleClock ?? Date.now, job, row);
        if (turn.kind === "wait") {
          await db
            .update(processingSteps)
            .set({
              status: "pending",
              attempts: sql`greatest(0, ${processingSteps.attempts} - 1)`,
              updatedAt: sql`now()`,
            })
            .where(eq(processingSteps.id, row.id));
          return { parkedUntil: turn.until };
        }
        if (turn.kind === "removed") {
          // Taken off the schedule by a moderator: nothing goes to this channel, and the step says why.
          output = { skipped: true, removed: true, message: turn.note };
        } else {
          const pacing = deps.channelPacing ?? 1;
          const rules = (plugin.throttle?.(config) ?? []).map((rule) => ({
            ...rule,
            intervalMs: rule.intervalMs * pacing,
          }));
          if (rules.length > 0) {
            heldKeys = slotKeys(plugin.name, rules);
            const slot = reservation ?? (await reserveSlot(db, plugin.name, rules));
            const deferred = await awaitTurn(db, row.id, slot, signal);
            if (deferred) return { deferred };
          }
          output = await plugin.send(rendered, config, context);
          sent = { replay, edits: rendered.edits === true };
        }
      }
    }
    const storedOutput = boundedJson(output ?? null);
    // A send is recorded in the publish ledger in the same transaction that marks its step done.
    await db.transaction(async (tx) => {
      await tx
        .update(processingSteps)
        .set({
          ...written,
          pluginVersion,
          status: "success",
          output: storedOutput,
          completedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(processingSteps.id, row.id));
      if (sent) {
        await markScheduledSent(tx, row.id);
        await recordPublication(tx, {
          job,
          step: row,
          receipt: storedOutput,
          ...(sent.replay && sent.edits ? { edited: { publicationId: sent.replay.publicationId } } : {}),
        });
      }
    });
    return { output };
  } catch (thrown) {
    const error = toStepError(thrown);
    if (thrown instanceof PluginError && thrown.retryAfterMs && heldKeys.length) {
      // The channel asked everyone to wait: other jobs sharing its keys wait too instead of collecting 429s.
      await holdSlots(db, heldKeys, thrown.retryAfterMs);
    }
    // A dry run sends nothing, so it never pauses a channel (nor is it held by one: resuming would publish it).
    if (error.code === CREDENTIALS_REJECTED && row.type === "distribution" && JOB_KINDS[job.kind].sends) {
      error.channelKey = channelKeyOf(row.pluginName, row.config);
      await pauseChannel(db, {
        feedId: job.feedId,
        channelKey: error.channelKey,
        pluginName: row.pluginName,
        stepName: row.stepName,
        error,
        jobId: job.id,
      });
    }
    deps.logger.info(
      { jobId: job.id, step: row.id, plugin: row.pluginName, code: error.code },
      "step failed",
    );
    await db
      .update(processingSteps)
      .set({
        ...written,
        pluginVersion,
        status: "failed",
        error,
        completedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(processingSteps.id, row.id));
    return { error };
  }
}
