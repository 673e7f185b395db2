import { randomUUID } from "node:crypto";
import {
  FINISHED_JOB_STATUSES,
  normaliseFeedId,
  type Paged,
  type ProcessedSubmission,
  type ProcessingJob,
  type ProcessingJobKind,
  type ProcessingStep,
  type ProcessingSummary,
} from "@curate/core";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps, type User } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import type { Plan, PlanEntry } from "./plan.ts";
import type { StepError } from "./runner.ts";

type JobRow = typeof processingJobs.$inferSelect;
type StepRow = typeof processingSteps.$inferSelect;
type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toProcessingJob(row: JobRow): ProcessingJob {
  return {
    id: row.id,
    kind: row.kind,
    submissionId: row.submissionId,
    feedId: row.feedId,
    status: row.status,
    idempotencyKey: row.idempotencyKey,
    retryOfJobId: row.retryOfJobId,
    note: row.note,
    attempts: row.attempts,
    requestedBy: row.requestedBy,
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toProcessingStep(row: StepRow): ProcessingStep {
  return {
    id: row.id,
    jobId: row.jobId,
    stepOrder: row.stepOrder,
    type: row.type,
    stage: row.stage,
    branch: row.branch,
    pluginName: row.pluginName,
    stepName: row.stepName,
    config: row.config ?? null,
    status: row.status,
    input: row.input ?? null,
    output: row.output ?? null,
    error: (row.error as StepError | null) ?? null,
    idempotencyKey: row.idempotencyKey,
    attempts: row.attempts,
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Processing history is for the feed's moderators only: 401 signed out (the guard), 403 others, 404 no feed. */
export async function assertModerates(db: Database, env: Env, feedId: string, user: User | null) {
  if (!user) throw AppError.unauthenticated();
  const right = await moderationRight(db, env, feedId, user);
  if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
  if (!right.canModerate) {
    throw AppError.forbidden("You need to be a moderator of this feed to view or change its processing.");
  }
}

async function findJob(db: Database, jobId: string): Promise<JobRow> {
  const [job] = await db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
  if (!job) throw AppError.notFound(`Processing job "${jobId}" not found.`);
  return job;
}

async function findStep(db: Database, stepId: string): Promise<{ step: StepRow; job: JobRow }> {
  const [step] = await db.select().from(processingSteps).where(eq(processingSteps.id, stepId));
  if (!step) throw AppError.notFound(`Processing step "${stepId}" not found.`);
  return { step, job: await findJob(db, step.jobId) };
}

/** A submission's jobs in one feed, newest first (document 1 §7: polled while one is processing). */
export async function listSubmissionJobs(
  db: Database,
  env: Env,
  user: User | null,
  submissionId: string,
  feedIdParam: string,
): Promise<ProcessingJob[]> {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  const rows = await db
    .select()
    .from(processingJobs)
    .where(and(eq(processingJobs.submissionId, submissionId), eq(processingJobs.feedId, feedId)))
    .orderBy(sql`${processingJobs.startedAt} desc nulls first`, desc(processingJobs.createdAt))
    .limit(100);
  return rows.map(toProcessingJob);
}

export async function listJobSteps(db: Database, env: Env, user: User | null, jobId: string) {
  const job = await findJob(db, jobId);
  await assertModerates(db, env, job.feedId, user);
  const rows = await db
    .select()
    .from(processingSteps)
    .where(eq(processingSteps.jobId, jobId))
    .orderBy(asc(processingSteps.stepOrder));
  return rows.map(toProcessingStep);
}

/** One unfinished job per submission and feed at a time, so a double click cannot publish twice at once. */
async function assertNoneRunning(db: Database, job: JobRow) {
  if (!job.submissionId) return;
  const [running] = await db
    .select({ id: processingJobs.id })
    .from(processingJobs)
    .where(
      and(
        eq(processingJobs.submissionId, job.submissionId),
        eq(processingJobs.feedId, job.feedId),
        inArray(processingJobs.status, ["pending", "processing"]),
      ),
    )
    .limit(1);
  if (running) {
    throw AppError.conflict(
      "A job for this submission is still waiting or running; try again when it has finished.",
    );
  }
}

async function createFollowUp(
  db: Database,
  original: JobRow,
  user: User,
  kind: ProcessingJobKind,
  plan: Plan | null,
  samePublication: boolean,
): Promise<ProcessingJob> {
  await assertNoneRunning(db, original);
  const id = randomUUID();
  const [row] = await db
    .insert(processingJobs)
    .values({
      id,
      kind,
      submissionId: original.submissionId,
      feedId: original.feedId,
      status: "pending",
      idempotencyKey: `${kind}:${original.id}:${id}`,
      retryOfJobId: original.id,
      plan,
      // A retry finishes the same publication (channels that dedupe see the same key); a reprocess or a tweak is
      // a deliberate new one.
      publicationKey: samePublication
        ? (original.publicationKey ?? original.idempotencyKey)
        : `${kind}:${id}`,
      requestedBy: user.nearAccountId,
    })
    .returning();
  return toProcessingJob(row);
}

function planOf(job: JobRow): Plan {
  const plan = job.plan as Plan | null;
  if (!plan) throw AppError.conflict("This job has not started yet, so there is nothing to retry.");
  return plan;
}

const chainOf = (step: StepRow): "global" | number => (step.branch === null ? "global" : step.branch);

/** Retry Failed: every failed step of a finished job, in one new job, each from its stored input. */
export async function retryFailedSteps(db: Database, env: Env, user: User, jobId: string) {
  const job = await findJob(db, jobId);
  await assertModerates(db, env, job.feedId, user);
  if (!FINISHED_JOB_STATUSES.includes(job.status)) {
    throw AppError.conflict("This job is still running; retry it when it has finished.");
  }
  const failed = await db
    .select()
    .from(processingSteps)
    .where(and(eq(processingSteps.jobId, jobId), eq(processingSteps.status, "failed")))
    .orderBy(asc(processingSteps.stepOrder));
  if (failed.length === 0) throw AppError.conflict("This job has no failed steps to retry.");
  const plan = planOf(job);
  const globalFailure = failed.find((step) => step.branch === null);
  const entries: PlanEntry[] = globalFailure
    ? [{ chain: "global", from: globalFailure.position, input: globalFailure.input }]
    : failed.map((step) => ({ chain: chainOf(step), from: step.position, input: step.input }));
  return createFollowUp(db, job, user, "retry", { ...plan, entries }, true);
}

/** Retry Step: the job again from that step, with that step's stored input. */
export async function retryFromStep(db: Database, env: Env, user: User, stepId: string) {
  const { step, job } = await findStep(db, stepId);
  await assertModerates(db, env, job.feedId, user);
  if (step.status === "pending" || step.input === null) {
    throw AppError.conflict("This step has not run yet, so there is no input to retry it with.");
  }
  const entries: PlanEntry[] = [{ chain: chainOf(step), from: step.position, input: step.input }];
  return createFollowUp(db, job, user, "retry", { ...planOf(job), entries }, true);
}

/** Reprocess: a new job from the feed's latest config (job level only). */
export async function reprocessJob(db: Database, env: Env, user: User, jobId: string) {
  const job = await findJob(db, jobId);
  await assertModerates(db, env, job.feedId, user);
  if (!job.submissionId) throw AppError.conflict("Only a submission's jobs can be reprocessed.");
  return createFollowUp(db, job, user, "reprocess", null, false);
}

/** Tweak and Reprocess: the step again with an edited input, then the rest of its branch. */
export async function tweakStep(db: Database, env: Env, user: User, stepId: string, newInput: string) {
  const { step, job } = await findStep(db, stepId);
  await assertModerates(db, env, job.feedId, user);
  let input: unknown;
  try {
    input = JSON.parse(newInput);
  } catch (error) {
    throw AppError.validation(`The new input is not valid JSON: ${(error as Error).message}`, [
      { path: "newInput", message: (error as Error).message },
    ]);
  }
  const entries: PlanEntry[] = [{ chain: chainOf(step), from: step.position, input }];
  return createFollowUp(db, job, user, "tweak", { ...planOf(job), entries }, false);
}

/** The processing tab's rows: the feed's approved submissions, newest first, with their latest job. */
export async function listProcessedSubmissions(
  db: Database,
  env: Env,
  user: User | null,
  feedIdParam: string,
  query: { page: number; limit: number; failures?: "recent" },
): Promise<Paged<ProcessedSubmission>> {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  const { page, limit } = query;
  const recentFailure = sql`exists (select 1 from processing_jobs fj where fj.submission_id = sf.submission_id
    and fj.feed_id = sf.feed_id and fj.status in ('failed', 'completed_with_errors')
    and fj.completed_at > now() - interval '24 hours')`;
  const filtered = query.failures === "recent";
  const filter = filtered ? sql`and ${recentFailure}` : sql``;
  // The trigger-kept counters give the unfiltered total; only the failure filter needs counting.
  const [{ total }] = await queryRows<{ total: number }>(
    db,
    filtered
      ? sql`select count(*)::int as total from submission_feeds sf
          where sf.feed_id = ${feedId} and sf.status = 'approved' ${filter}`
      : sql`select coalesce(sum(count), 0)::int as total from submission_counts
          where scope = ${feedId} and status = 'approved'`,
  );
  const rows = await queryRows<ProcessedSubmission>(
    db,
    sql`select sf.submission_id as "submissionId", s.content, s.username,
        ${isoUtc("sf.submitted_at")} as "submittedAt", ${isoUtc("sf.updated_at")} as "approvedAt",
        (select json_build_object('id', j.id, 'status', j.status, 'startedAt', ${isoUtc("j.started_at")})
          from processing_jobs j where j.submission_id = sf.submission_id and j.feed_id = sf.feed_id
          order by j.started_at desc nulls first, j.created_at desc limit 1) as "latestJob"
      from submission_feeds sf join submissions s on s.tweet_id = sf.submission_id
      where sf.feed_id = ${feedId} and sf.status = 'approved' ${filter}
      order by sf.submitted_at desc, sf.submission_id desc
      limit ${limit + 1} offset ${page * limit}`,
  );
  const hasNextPage = rows.length > limit;
  return { items: rows.slice(0, limit), pagination: { page, limit, hasNextPage, totalCount: Number(total) } };
}

/** The feed page's badge: failed or partly failed jobs of the last 24 hours. */
export async function processingSummary(
  db: Database,
  env: Env,
  user: User | null,
  feedIdParam: string,
): Promise<ProcessingSummary> {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  const [row] = await queryRows<{ failed: number }>(
    db,
    sql`select count(*)::int as failed from processing_jobs
      where feed_id = ${feedId} and status in ('failed', 'completed_with_errors')
        and completed_at > now() - interval '24 hours'`,
  );
  return { failedLast24h: row?.failed ?? 0 };
}
