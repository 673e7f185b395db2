import { randomUUID } from "node:crypto";
import {
  type DryRunChannel,
  type DryRunResult,
  type FeedConfig,
  normaliseFeedId,
  PLUGINS,
  type ProcessingJobKind,
  type TestBenchAnswer,
} from "@curate/core";
import { and, asc, eq, sql } from "drizzle-orm";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps, submissionFeeds, type User } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { configIssues } from "../feeds/config-checks.ts";
import { assertCanManageFeed } from "../feeds/permissions.ts";
import { consumeLimit } from "../limits/service.ts";
import type { DryRunJob, DryRunPort } from "./dry-run-port.ts";
import { submissionInput } from "./input.ts";
import { emptyPlanReason, type Plan, planFromConfig } from "./plan.ts";
import { runProcessingJob } from "./runner.ts";
import { assertModerates, toProcessingJob, toProcessingStep } from "./service.ts";
import type { RunnerDeps } from "./shared.ts";

type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS" | "DRY_RUNS_PER_ACCOUNT_PER_HOUR">;
type StepRow = typeof processingSteps.$inferSelect;
type JobRow = typeof processingJobs.$inferSelect;

const HOUR_MS = 60 * 60 * 1000;
/** Dry runs kept per submission and feed: older ones go when a new one is stored (they are previews, not history). */
export const DRY_RUNS_KEPT = 10;

/**
 * A dry run costs what a real run costs up to the send (AI calls count against the feed's hourly AI budget inside
 * the AI transform), so each account gets a budget of them per hour; a config test over N posts costs N.
 */
async function spendDryRuns(db: Database, env: Env, user: User, cost: number) {
  const used = await consumeLimit(
    db,
    `dry-runs:${user.nearAccountId.toLowerCase()}`,
    env.DRY_RUNS_PER_ACCOUNT_PER_HOUR,
    HOUR_MS,
    cost,
  );
  if (!used.allowed) {
    const minutes = Math.max(1, Math.ceil(used.retryAfterMs / 60_000));
    throw new AppError(
      "RATE_LIMITED",
      `You have used this hour's ${env.DRY_RUNS_PER_ACCOUNT_PER_HOUR} dry runs; try again in ${minutes} min.`,
    );
  }
}

/** What each channel of a dry-run job would publish, or which step stopped it. */
export function channelsOf(plan: Plan | null, steps: StepRow[]): DryRunChannel[] {
  if (!plan) return [];
  const global = steps.filter((step) => step.branch === null);
  const globalFailure = global.find((step) => step.status === "failed") ?? null;
  const isAi = (step: StepRow) => step.pluginName === PLUGINS.aiTransform && step.status === "success";
  return plan.branches.map((branch) => {
    const own = steps.filter((step) => step.branch === branch.index);
    const distribution = own.find((step) => step.type === "distribution");
    const failed =
      distribution?.status === "failed"
        ? distribution
        : (own.find((s) => s.status === "failed") ?? globalFailure);
    const output =
      distribution?.status === "success" ? (distribution.output as Record<string, unknown>) : null;
    const replaces = (output?.replaces as DryRunChannel["replaces"] | undefined) ?? null;
    return {
      branch: branch.index,
      pluginName: branch.distributor.plugin,
      stepName: distribution?.stepName ?? null,
      status: output ? "rendered" : failed ? "failed" : "not_run",
      action: typeof output?.action === "string" ? output.action : null,
      request: output?.request ?? null,
      shown: (output?.shown as DryRunChannel["shown"] | undefined) ?? null,
      outcome: output ? ((output.outcome as DryRunChannel["outcome"] | undefined) ?? "new") : null,
      replaces,
      error: output ? null : ((failed?.error as DryRunChannel["error"]) ?? null),
      failedStep: output ? null : (failed?.stepName ?? null),
      ai: [...global, ...own].some(isAi),
    };
  });
}

async function dryRunResult(db: Database, jobId: string): Promise<DryRunResult> {
  const [job] = await db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
  const steps = await db
    .select()
    .from(processingSteps)
    .where(eq(processingSteps.jobId, jobId))
    .orderBy(asc(processingSteps.stepOrder));
  return {
    job: toProcessingJob(job),
    steps: steps.map(toProcessingStep),
    channels: channelsOf(job.plan as Plan | null, steps),
  };
}

/**
 * Stores a dry-run job (kind `dry_run`: never relayed to the queue, never listed or counted as published) and runs
 * it here and now, to its end: transforms as usual, distributors render and send nothing.
 */
async function runDryJob(runner: RunnerDeps, values: DryRunJob): Promise<DryRunResult> {
  const id = randomUUID();
  await forgetOldDryRuns(runner.db, values.feedId, values.submissionId);
  await runner.db.insert(processingJobs).values({
    id,
    kind: "dry_run",
    submissionId: values.submissionId,
    feedId: values.feedId,
    status: "pending",
    idempotencyKey: `dry_run:${id}`,
    publicationKey: `dry_run:${id}`,
    retryOfJobId: values.retryOfJobId ?? null,
    plan: values.plan,
    note: values.note,
    requestedBy: values.requestedBy,
    // Marked as relayed, so the engine's outbox never hands it to a worker: this request runs it.
    queuedAt: sql`now()`,
  });
  try {
    await runProcessingJob(runner, id, { lastChance: true });
  } catch (error) {
    // The run was cut short (the database went away mid-run): the labelled job says so instead of waiting forever.
    await runner.db
      .update(processingJobs)
      .set({
        status: "failed",
        note: "The dry run was interrupted.",
        completedAt: sql`now()`,
        leaseUntil: null,
      })
      .where(eq(processingJobs.id, id))
      .catch(() => undefined);
    throw error;
  }
  return dryRunResult(runner.db, id);
}

/** The runner's side of the dry-run port: what the app hands its routes. */
export function dryRunPort(runner: RunnerDeps): DryRunPort {
  return { run: (job) => runDryJob(runner, job) };
}

/** Keeps the latest dry runs of a submission in a feed (their steps go with them), so previews never pile up. */
async function forgetOldDryRuns(db: Database, feedId: string, submissionId: string) {
  await db.execute(sql`delete from processing_jobs where id in (
    select id from processing_jobs
    where submission_id = ${submissionId} and feed_id = ${feedId} and kind = 'dry_run'
      and status not in ('pending', 'processing')
    order by created_at desc offset ${DRY_RUNS_KEPT - 1})`);
}

/** Preview: what each of the feed's channels would publish if this (pending) post were approved now. */
export async function previewSubmission(
  dryRuns: DryRunPort,
  db: Database,
  env: Env,
  user: User,
  request: { submissionId: string; feedId: string },
): Promise<DryRunResult> {
  const feedId = normaliseFeedId(request.feedId);
  await assertModerates(db, env, feedId, user);
  const [link] = await db
    .select({ status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(and(eq(submissionFeeds.submissionId, request.submissionId), eq(submissionFeeds.feedId, feedId)));
  if (!link) throw AppError.notFound(`Submission "${request.submissionId}" is not in feed "${feedId}".`);
  await spendDryRuns(db, env, user, 1);
  return dryRuns.run({
    feedId,
    submissionId: request.submissionId,
    plan: null,
    requestedBy: user.nearAccountId,
    note: "Dry run: a preview of the feed's channels.",
  });
}

/**
 * Test this config: the working config (saved or not) as dry runs against the feed's latest approved submissions.
 * An invalid config answers its field errors; nothing is saved but the dry-run jobs.
 */
export async function testFeedConfig(
  dryRuns: DryRunPort,
  db: Database,
  env: Env,
  user: User,
  feedIdParam: string,
  request: { config: FeedConfig; count: number },
): Promise<TestBenchAnswer> {
  const feedId = normaliseFeedId(feedIdParam);
  await assertCanManageFeed(db, env, feedId, user);
  const issues = await configIssues(db, request.config);
  if (issues.length) {
    throw AppError.validation(
      `Invalid feed config: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues.map((issue) => ({ ...issue, path: `config.${issue.path}` })),
    );
  }
  const empty = emptyPlanReason(request.config);
  if (empty) return { runs: [], note: empty };
  const latest = await queryRows<{
    submissionId: string;
    content: string;
    username: string;
    approvedAt: string;
  }>(
    db,
    sql`select sf.submission_id as "submissionId", s.content, s.username, ${isoUtc("sf.updated_at")} as "approvedAt"
      from submission_feeds sf join submissions s on s.tweet_id = sf.submission_id
      where sf.feed_id = ${feedId} and sf.status = 'approved'
      order by sf.updated_at desc, sf.submission_id desc
      limit ${request.count}`,
  );
  if (latest.length === 0) {
    return { runs: [], note: "This feed has no approved submissions yet to test the config against." };
  }
  await spendDryRuns(db, env, user, latest.length);
  const runs: TestBenchAnswer["runs"] = [];
  for (const submission of latest) {
    const input = await submissionInput(db, submission.submissionId, feedId);
    if (!input) continue;
    const result = await dryRuns.run({
      feedId,
      submissionId: submission.submissionId,
      plan: planFromConfig(request.config, input),
      requestedBy: user.nearAccountId,
      note: "Dry run: a test of an edited config.",
    });
    runs.push({ ...submission, content: submission.content.slice(0, 280), result });
  }
  return { runs, note: null };
}

/**
 * A replay's dry run (Reprocess, Retry Step, Tweak and Reprocess first run dry): the follow-up's plan, stored as a
 * dry-run job linked to the job it replays, so the step dialog can diff it against that job's steps.
 */
export async function dryRunFollowUp(
  dryRuns: DryRunPort,
  db: Database,
  env: Env,
  user: User,
  original: JobRow,
  of: ProcessingJobKind,
  plan: Plan | null,
): Promise<DryRunResult> {
  if (!original.submissionId) throw AppError.conflict("Only a submission's jobs can be replayed.");
  await spendDryRuns(db, env, user, 1);
  return dryRuns.run({
    feedId: original.feedId,
    submissionId: original.submissionId,
    plan,
    retryOfJobId: original.id,
    requestedBy: user.nearAccountId,
    note: `Dry run of a ${of === "tweak" ? "tweak and reprocess" : of}.`,
  });
}
