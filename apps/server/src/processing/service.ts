import { randomUUID } from "node:crypto";
import {
  FINISHED_JOB_STATUSES,
  type JobListDryRunFilter,
  normaliseFeedId,
  type Paged,
  type ProcessedSubmission,
  type ProcessingJob,
  type ProcessingJobKind,
  type ProcessingStep,
  type ProcessingSummary,
  type ScheduledSendsQuery,
  shortJobId,
} from "@curate/core";
import { and, asc, desc, eq, inArray, ne, notInArray, type SQL, sql } from "drizzle-orm";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps, submissionFeeds, type User } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed, moderationRight } from "../feeds/permissions.ts";
import { publicationsByIds } from "../publications/ledger.ts";
import { currentTraceParent } from "../telemetry/tracing.ts";
import { requestAcknowledgementRetry } from "./acknowledgements.ts";
import { countChannelPauses, listChannelPauses, resumeFeedChannels } from "./pauses.ts";
import type { Plan, PlanEntry } from "./plan.ts";
import { createRecapRun, listRecapRuns, listRecapStatuses } from "./recaps.ts";
import { CANNOT_RETRACT, requestRetraction } from "./retraction.ts";
import {
  listScheduledChannels,
  listScheduledSends,
  moveScheduledSend,
  publishScheduledSendNow,
  removeScheduledSend,
} from "./schedule.ts";
import type { StepError } from "./shared.ts";

type JobRow = typeof processingJobs.$inferSelect;
type StepRow = typeof processingSteps.$inferSelect;
type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toProcessingJob(row: JobRow, retryBlockedReason: string | null = null): ProcessingJob {
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
    recapId: row.recapId,
    retryBlockedReason,
    periodStart: iso(row.periodStart),
    periodEnd: iso(row.periodEnd),
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
    pluginVersion: row.pluginVersion,
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

/** A submission's jobs in one feed, newest first (the page asks again while one is processing). */
export async function listSubmissionJobs(
  db: Database,
  env: Env,
  user: User | null,
  submissionId: string,
  feedIdParam: string,
  dryRuns?: JobListDryRunFilter,
): Promise<ProcessingJob[]> {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  const kindFilter =
    dryRuns === "exclude"
      ? ne(processingJobs.kind, "dry_run")
      : dryRuns === "only"
        ? eq(processingJobs.kind, "dry_run")
        : undefined;
  const rows = await db
    .select()
    .from(processingJobs)
    .where(and(eq(processingJobs.submissionId, submissionId), eq(processingJobs.feedId, feedId), kindFilter))
    .orderBy(sql`${processingJobs.startedAt} desc nulls first`, desc(processingJobs.createdAt))
    .limit(100);
  const blocked = await retryBlockedReasons(db, rows);
  return rows.map((row) => toProcessingJob(row, blocked.get(row.id) ?? null));
}

/** Kinds that publish a submission's branches (and so may leave one failed for Retry Failed). */
const PUBLISHING_KINDS = ["approval", "retry", "reprocess", "tweak", "republish"] as const;
const isPublishing = (kind: string) => (PUBLISHING_KINDS as readonly string[]).includes(kind);

/**
 * Why Retry Failed has nothing left to do, per failed job of one submission in one feed (`jobs`: all of them, or
 * at least each failed job's later ones): every branch that failed in it was published since (sent, edited, or
 * found already live) by a job descending from it through `retryOfJobId`. A retry would only edit those.
 */
export async function retryBlockedReasons(db: Database, jobs: JobRow[]): Promise<Map<string, string>> {
  const failedJobs = jobs.filter(
    (job) => isPublishing(job.kind) && (job.status === "failed" || job.status === "completed_with_errors"),
  );
  if (failedJobs.length === 0) return new Map();
  const children = new Map<string, JobRow[]>();
  for (const job of jobs) {
    if (!job.retryOfJobId || !isPublishing(job.kind)) continue;
    children.set(job.retryOfJobId, [...(children.get(job.retryOfJobId) ?? []), job]);
  }
  const descendants = (root: string): JobRow[] => {
    const found: JobRow[] = [];
    const queue = [...(children.get(root) ?? [])];
    while (queue.length > 0 && found.length < jobs.length) {
      const next = queue.shift() as JobRow;
      found.push(next);
      queue.push(...(children.get(next.id) ?? []));
    }
    return found;
  };
  const later = new Map(failedJobs.map((job) => [job.id, descendants(job.id)]));
  const involved = [...new Set([...failedJobs, ...[...later.values()].flat()].map((job) => job.id))];
  const steps = await db
    .select({
      jobId: processingSteps.jobId,
      branchKey: processingSteps.branchKey,
      stepName: processingSteps.stepName,
      status: processingSteps.status,
    })
    .from(processingSteps)
    .where(and(inArray(processingSteps.jobId, involved), eq(processingSteps.type, "distribution")));
  const reasons = new Map<string, string>();
  for (const job of failedJobs) {
    const failed = steps.filter(
      (step) => step.jobId === job.id && step.status !== "success" && step.branchKey,
    );
    if (failed.length === 0) continue;
    const publishedBy = new Map<string, string>();
    for (const descendant of later.get(job.id) ?? []) {
      for (const step of steps) {
        if (step.jobId === descendant.id && step.status === "success" && step.branchKey) {
          publishedBy.set(step.branchKey, descendant.id);
        }
      }
    }
    if (!failed.every((step) => publishedBy.has(step.branchKey as string))) continue;
    const names = [...new Set(failed.map((step) => step.stepName ?? "the channel"))];
    const by = [
      ...new Set(failed.map((step) => shortJobId(publishedBy.get(step.branchKey as string) ?? ""))),
    ];
    reasons.set(
      job.id,
      `Nothing left to retry: ${joinNames(names)} ${names.length === 1 ? "was" : "were"} published since by ${by.length === 1 ? "job" : "jobs"} ${joinNames(by)}. Use Reprocess or Tweak to change what is live; re-runs edit it.`,
    );
  }
  return reasons;
}

const joinNames = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

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
export async function assertNoneRunning(
  db: Database,
  job: Pick<JobRow, "recapId" | "submissionId" | "feedId" | "kind">,
) {
  const same = job.recapId
    ? eq(processingJobs.recapId, job.recapId)
    : job.submissionId
      ? eq(processingJobs.submissionId, job.submissionId)
      : null;
  if (!same) return;
  // An acknowledgement waiting for its bot's turn never holds up publishing, nor publishing a reply.
  const kinds =
    job.kind === "acknowledgement"
      ? eq(processingJobs.kind, "acknowledgement")
      : notInArray(processingJobs.kind, ["dry_run", "acknowledgement"]);
  const [running] = await db
    .select({ id: processingJobs.id })
    .from(processingJobs)
    .where(
      and(
        same,
        eq(processingJobs.feedId, job.feedId),
        inArray(processingJobs.status, ["pending", "processing"]),
        kinds,
      ),
    )
    .limit(1);
  if (running) {
    throw AppError.conflict(
      job.recapId
        ? "A run of this recap is still waiting or running; try again when it has finished."
        : "A job for this submission is still waiting or running; try again when it has finished.",
    );
  }
}

/** A post retracted or rejected since is never published again by a retry, reprocess or tweak. */
async function assertStillApproved(db: Database, job: JobRow) {
  if (!job.submissionId) return;
  const [link] = await db
    .select({ status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(and(eq(submissionFeeds.submissionId, job.submissionId), eq(submissionFeeds.feedId, job.feedId)));
  if (link && link.status !== "approved") {
    throw AppError.conflict(
      `This post is ${link.status} in this feed now (retracted or rejected), so it is not published again.`,
    );
  }
}

export async function createFollowUp(
  db: Database,
  original: JobRow,
  user: User,
  kind: ProcessingJobKind,
  plan: Plan | null,
): Promise<ProcessingJob> {
  if (original.kind === "dry_run") {
    // Its plan may be a config that was never saved: only the job it previewed can be run for real.
    throw AppError.conflict("A dry run cannot be published; replay the job it previewed instead.");
  }
  await assertNoneRunning(db, original);
  await assertStillApproved(db, original);
  const id = randomUUID();
  const [row] = await db
    .insert(processingJobs)
    .values({
      id,
      kind,
      submissionId: original.submissionId,
      feedId: original.feedId,
      // A recap's retry or reprocess covers the same period of the same recap.
      recapId: original.recapId,
      periodStart: original.periodStart,
      periodEnd: original.periodEnd,
      status: "pending",
      idempotencyKey: `${kind}:${original.id}:${id}`,
      retryOfJobId: original.id,
      plan,
      // Re-runs of a post are the same publication (the ledger says what they edit, and channels that dedupe see
      // the same key); only "publish again as a new post" is a deliberate new one.
      publicationKey:
        kind === "republish" ? `${kind}:${id}` : (original.publicationKey ?? original.idempotencyKey),
      requestedBy: user.nearAccountId,
      traceParent: currentTraceParent(),
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

/**
 * A retraction's failed steps again, in a new retraction job: the publications they were removing that are still
 * out there. Steps whose channel cannot retract are not retried (nothing would change).
 */
async function retryRetraction(db: Database, job: JobRow, user: User, steps: StepRow[]) {
  if (!job.submissionId) throw AppError.conflict("This retraction has no submission.");
  const retryable = steps.filter(
    (step) => step.status === "failed" && (step.error as StepError | null)?.code !== CANNOT_RETRACT,
  );
  const ids = retryable.map((step) => (step.input as { publicationId?: string } | null)?.publicationId ?? "");
  const entries = (await publicationsByIds(db, ids)).filter((entry) => entry.status === "published");
  if (entries.length === 0) {
    throw AppError.conflict(
      "Nothing to retry: every publication of these steps is retracted, or its channel cannot retract.",
    );
  }
  await assertNoneRunning(db, job);
  const submissionId = job.submissionId;
  const id = await db.transaction((tx) =>
    requestRetraction(tx, {
      submissionId,
      feedId: job.feedId,
      entries,
      requestedBy: user.nearAccountId,
      retryOfJobId: job.id,
    }),
  );
  return toProcessingJob(await findJob(db, id));
}

/** An acknowledgement's failed reply again, in a new acknowledgement job (no pipeline, no approval needed). */
async function retryAcknowledgement(db: Database, job: JobRow, user: User, step: StepRow) {
  await assertNoneRunning(db, job);
  const id = await db.transaction((tx) => requestAcknowledgementRetry(tx, job, step, user.nearAccountId));
  return toProcessingJob(await findJob(db, id));
}

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
  if (job.kind === "retraction") return retryRetraction(db, job, user, failed);
  if (job.kind === "acknowledgement") return retryAcknowledgement(db, job, user, failed[0]);
  if (job.submissionId) {
    const related = await db
      .select()
      .from(processingJobs)
      .where(and(eq(processingJobs.submissionId, job.submissionId), eq(processingJobs.feedId, job.feedId)))
      .orderBy(desc(processingJobs.createdAt))
      .limit(1000);
    const blocked = (await retryBlockedReasons(db, related)).get(job.id);
    if (blocked) throw AppError.conflict(blocked);
  }
  const plan = planOf(job);
  const globalFailure = failed.find((step) => step.branch === null);
  const entries: PlanEntry[] = globalFailure
    ? [{ chain: "global", from: globalFailure.position, input: globalFailure.input }]
    : failed.map((step) => ({ chain: chainOf(step), from: step.position, input: step.input }));
  return createFollowUp(db, job, user, "retry", { ...plan, entries });
}

/** A follow-up job to create (or first to run dry): the job it replays, its kind and its plan. */
export interface FollowUp {
  job: JobRow;
  kind: ProcessingJobKind;
  plan: Plan | null;
}

/** Retry Step: the job again from that step, with that step's stored input. */
export async function retryFromStep(db: Database, env: Env, user: User, stepId: string) {
  const { step, job: found } = await findStep(db, stepId);
  if (found.kind === "retraction") {
    await assertModerates(db, env, found.feedId, user);
    if (!FINISHED_JOB_STATUSES.includes(found.status)) {
      throw AppError.conflict("This retraction is still running; retry the step when it has finished.");
    }
    if (step.status !== "failed")
      throw AppError.conflict("This step did not fail: there is nothing to retry.");
    return retryRetraction(db, found, user, [step]);
  }
  if (found.kind === "acknowledgement") {
    await assertModerates(db, env, found.feedId, user);
    if (!FINISHED_JOB_STATUSES.includes(found.status)) {
      throw AppError.conflict("This acknowledgement is still running; retry it when it has finished.");
    }
    if (step.status !== "failed")
      throw AppError.conflict("This step did not fail: there is nothing to retry.");
    return retryAcknowledgement(db, found, user, step);
  }
  const { job, kind, plan } = await retryStepFollowUp(db, env, user, stepId);
  return createFollowUp(db, job, user, kind, plan);
}

export async function retryStepFollowUp(
  db: Database,
  env: Env,
  user: User,
  stepId: string,
): Promise<FollowUp> {
  const { step, job } = await findStep(db, stepId);
  await assertModerates(db, env, job.feedId, user);
  if (step.status === "pending" || step.input === null) {
    throw AppError.conflict("This step has not run yet, so there is no input to retry it with.");
  }
  // A retraction is retried for real from its failed steps (retryFromStep); there is nothing to preview.
  if (job.kind === "retraction") throw AppError.conflict("A retraction's steps cannot run as a dry run.");
  if (job.kind === "acknowledgement") {
    throw AppError.conflict("An acknowledgement cannot run as a dry run: retry it if it failed.");
  }
  const entries: PlanEntry[] = [{ chain: chainOf(step), from: step.position, input: step.input }];
  return { job, kind: "retry", plan: { ...planOf(job), entries } };
}

/** Reprocess: a new job from the feed's latest config (job level only). */
export async function reprocessJob(db: Database, env: Env, user: User, jobId: string) {
  const { job, kind, plan } = await reprocessFollowUp(db, env, user, jobId);
  return createFollowUp(db, job, user, kind, plan);
}

export async function reprocessFollowUp(
  db: Database,
  env: Env,
  user: User,
  jobId: string,
): Promise<FollowUp> {
  const job = await findJob(db, jobId);
  await assertModerates(db, env, job.feedId, user);
  if (!job.submissionId && !job.recapId) {
    throw AppError.conflict("Only a submission's or a recap's jobs can be reprocessed.");
  }
  if (job.kind === "retraction") {
    throw AppError.conflict("A retraction cannot be reprocessed: retry its failed steps instead.");
  }
  if (job.kind === "acknowledgement") {
    throw AppError.conflict("An acknowledgement cannot be reprocessed: retry it if it failed.");
  }
  return { job, kind: "reprocess", plan: null };
}

/** Tweak and Reprocess: the step again with an edited input, then the rest of its branch. */
export async function tweakStep(db: Database, env: Env, user: User, stepId: string, newInput: string) {
  const { job, kind, plan } = await tweakFollowUp(db, env, user, stepId, newInput);
  return createFollowUp(db, job, user, kind, plan);
}

export async function tweakFollowUp(
  db: Database,
  env: Env,
  user: User,
  stepId: string,
  newInput: string,
): Promise<FollowUp> {
  const { step, job } = await findStep(db, stepId);
  await assertModerates(db, env, job.feedId, user);
  if (job.kind === "retraction") {
    throw AppError.conflict("A retraction step cannot be tweaked: retry it instead.");
  }
  if (job.kind === "acknowledgement") {
    throw AppError.conflict("An acknowledgement's text is fixed: retry it instead.");
  }
  let input: unknown;
  try {
    input = JSON.parse(newInput);
  } catch (error) {
    throw AppError.validation(`The new input is not valid JSON: ${(error as Error).message}`, [
      { path: "newInput", message: (error as Error).message },
    ]);
  }
  const entries: PlanEntry[] = [{ chain: chainOf(step), from: step.position, input }];
  return { job, kind: "tweak", plan: { ...planOf(job), entries } };
}

/**
 * The processing tab's rows: the feed's approved submissions, and those retracted (rejected with a retraction job,
 * so the retraction's steps can be inspected and retried there), newest first, with their latest job.
 */
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
  const filtered = query.failures === "recent";
  const filter = filtered
    ? sql`and sf.submission_id in ${recentlyFailed(feedId)} and ${stillUnpublished(sql`sf.submission_id`, feedId)}`
    : sql``;
  // Retracted posts are few: found from the retraction jobs' partial index, then kept only while still rejected.
  const retracted = sql`(select distinct rj.submission_id from processing_jobs rj
    where rj.feed_id = ${feedId} and rj.kind = 'retraction')`;
  const shown = sql`(sf.status = 'approved' or (sf.status = 'rejected' and sf.submission_id in ${retracted}))`;
  // The trigger-kept counters give the approved total; retracted posts and the failure filter are counted.
  const [{ total }] = await queryRows<{ total: number }>(
    db,
    filtered
      ? sql`select count(*)::int as total from submission_feeds sf
          where sf.feed_id = ${feedId} and ${shown} ${filter}`
      : sql`select (select coalesce(sum(count), 0) from submission_counts
            where scope = ${feedId} and status = 'approved')::int
          + (select count(*) from submission_feeds sf where sf.feed_id = ${feedId} and sf.status = 'rejected'
            and sf.submission_id in ${retracted})::int as total`,
  );
  const rows = await queryRows<ProcessedSubmission>(
    db,
    sql`select sf.submission_id as "submissionId", s.content, s.username,
        ${isoUtc("sf.submitted_at")} as "submittedAt", ${isoUtc("sf.updated_at")} as "approvedAt",
        (sf.status = 'rejected') as "retracted",
        (select json_build_object('id', j.id, 'status', j.status, 'startedAt', ${isoUtc("j.started_at")})
          from processing_jobs j where j.submission_id = sf.submission_id and j.feed_id = sf.feed_id
            -- The row's job is the pipeline's: a bot's reply is listed with the post's jobs, not in its place.
            and j.kind not in ('dry_run', 'acknowledgement')
          -- A job not started yet is the newest, unless it was cancelled before it started (its approval undone):
          -- it never will, and the job of the approval that stands is the one to show.
          order by (j.status = 'cancelled' and j.started_at is null), j.started_at desc nulls first,
            j.created_at desc
          limit 1) as "latestJob"
      from submission_feeds sf join submissions s on s.tweet_id = sf.submission_id
      where sf.feed_id = ${feedId} and ${shown} ${filter}
      order by sf.submitted_at desc, sf.submission_id desc
      limit ${limit + 1} offset ${page * limit}`,
  );
  const hasNextPage = rows.length > limit;
  return { items: rows.slice(0, limit), pagination: { page, limit, hasNextPage, totalCount: Number(total) } };
}

const publishingKinds = sql.join(
  PUBLISHING_KINDS.map((kind) => sql`${kind}`),
  sql`, `,
);

/** Submissions of the feed with a publishing job that failed (wholly or partly) in the last 24 hours. */
const recentlyFailed = (feedId: string) => sql`(select fj.submission_id from processing_jobs fj
  where fj.feed_id = ${feedId} and fj.status in ('failed', 'completed_with_errors')
    and fj.kind in (${publishingKinds}) and fj.completed_at > now() - interval '24 hours'
    and fj.submission_id is not null)`;

/**
 * A post still approved in the feed whose latest publishing job (finished in the last 24 hours) left a branch
 * failed and unpublished: a distribution that did not succeed, with nothing live in the ledger for its branch's key
 * (a job that failed before it had any distribution step counts too). A failure a later job repaired, or a failed
 * edit of a publication that is live, does not.
 */
const stillUnpublished = (submissionId: SQL, feedId: string) => sql`exists (
  select 1 from submission_feeds link
    cross join lateral (select j.id, j.status, j.completed_at from processing_jobs j
      where j.submission_id = link.submission_id and j.feed_id = link.feed_id and j.kind in (${publishingKinds})
      order by j.created_at desc limit 1) latest
  where link.submission_id = ${submissionId} and link.feed_id = ${feedId} and link.status = 'approved'
    and latest.status in ('failed', 'completed_with_errors')
    and latest.completed_at > now() - interval '24 hours'
    and (not exists (select 1 from processing_steps any_send
          where any_send.job_id = latest.id and any_send.type = 'distribution')
      or exists (select 1 from processing_steps send where send.job_id = latest.id and send.type = 'distribution'
          and send.status <> 'success'
          and not exists (select 1 from publications live where live.submission_id = link.submission_id
            and live.feed_id = link.feed_id and live.branch_key = send.branch_key and live.status = 'published'))))`;

/**
 * The feed page's badge: posts (submission and feed) whose latest publishing job of the last 24 hours still has a
 * failed branch that nothing published since.
 */
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
    sql`select count(*)::int as failed from (select distinct candidate.submission_id
      from ${recentlyFailed(feedId)} candidate) failing
      where ${stillUnpublished(sql`failing.submission_id`, feedId)}`,
  );
  return { failedLast24h: row?.failed ?? 0, pausedChannels: await countChannelPauses(db, feedId) };
}

/** The feed's channels paused for refused credentials (moderators see why the processing tab holds posts). */
export async function feedChannelPauses(db: Database, env: Env, user: User | null, feedIdParam: string) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  return listChannelPauses(db, feedId);
}

/** Resume publishing: the owner fixed what the channel refused; its held publications run again. */
export async function resumeChannels(
  db: Database,
  env: Env,
  user: User,
  feedIdParam: string,
  channelKey: string | undefined,
) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertCanManageFeed(db, env, feedId, user);
  const answer = await resumeFeedChannels(db, feedId, user.nearAccountId, channelKey);
  if (answer.resumed === 0) {
    throw AppError.conflict(
      channelKey ? "That channel is not paused (any more)." : "None of this feed's channels is paused.",
    );
  }
  return answer;
}

/** The feed's recaps and where their schedules stand (moderators of the feed). */
export async function recapStatuses(db: Database, env: Env, user: User | null, feedIdParam: string) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  return listRecapStatuses(db, feedId);
}

/** The feed's recap runs, newest first (moderators of the feed). */
export async function recapRuns(
  db: Database,
  env: Env,
  user: User | null,
  feedIdParam: string,
  query: { page: number; limit: number; recapId?: string },
): Promise<Paged<ProcessingJob>> {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  const page = await listRecapRuns(db, feedId, query);
  return { ...page, items: page.items.map((row) => toProcessingJob(row)) };
}

/** Run now: a recap over the approvals since its last run (moderators of the feed). */
export async function runRecapNow(db: Database, env: Env, user: User, feedIdParam: string, recapId: string) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  return toProcessingJob(await createRecapRun(db, feedId, recapId, user));
}

/** The Scheduled view (decision 0036): the feed's scheduled channels, for its moderators. */
export async function feedScheduledChannels(db: Database, env: Env, user: User | null, feedIdParam: string) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  return listScheduledChannels(db, feedId);
}

/** One scheduled channel's line, a page at a time. */
export async function feedScheduledSends(
  db: Database,
  env: Env,
  user: User | null,
  feedIdParam: string,
  query: ScheduledSendsQuery,
) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  return listScheduledSends(db, feedId, query);
}

/** A moderator's action on one waiting item: move it, send it now, or take it off the schedule. */
export async function changeScheduledSend(
  db: Database,
  env: Env,
  user: User,
  feedIdParam: string,
  sendId: string,
  change: { action: "move"; position: number } | { action: "publish-now" } | { action: "remove" },
) {
  const feedId = normaliseFeedId(feedIdParam);
  await assertModerates(db, env, feedId, user);
  if (change.action === "move") return moveScheduledSend(db, feedId, sendId, change.position);
  if (change.action === "publish-now") return publishScheduledSendNow(db, feedId, sendId);
  return removeScheduledSend(db, feedId, sendId, user.nearAccountId);
}
