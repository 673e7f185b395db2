import type { ProcessingJob, RetractCopyAnswer } from "@curate/core";
import { and, asc, eq } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { processingJobs, processingSteps } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { consumeLimit } from "../limits/service.ts";
import type { Plan } from "../processing/plan.ts";
import { requestRetraction } from "../processing/retraction.ts";
import { assertNoneRunning, createFollowUp } from "../processing/service.ts";
import { liveEntryOf, publicationsByIds } from "./ledger.ts";

type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS" | "REPUBLISH_PER_ACCOUNT_PER_HOUR">;

const HOUR_MS = 60 * 60 * 1000;

/** A ledger entry of a submission, for a moderator of its feed (404 unknown, 403 not a moderator). */
async function entryForModerator(db: Database, env: Env, user: User, publicationId: string) {
  const [entry] = await publicationsByIds(db, [publicationId]);
  if (!entry) throw AppError.notFound(`Publication "${publicationId}" not found.`);
  const right = await moderationRight(db, env, entry.feedId, user);
  if (!right) throw AppError.notFound(`Feed "${entry.feedId}" not found.`);
  if (!right.canModerate) {
    throw AppError.forbidden(
      `You need to be a moderator of "${entry.feedId}" to change where its posts went.`,
    );
  }
  if (!entry.submissionId) {
    throw AppError.conflict("A recap's publication is re-run from its recap, not from the ledger.");
  }
  return { ...entry, submissionId: entry.submissionId };
}

/**
 * Publish again as a new post: this entry's branch once more, from the input its job gave that branch, as a
 * `republish` job — the one kind that posts a second copy where the ledger already holds a live one (its own
 * entry, which then is the live one re-runs edit). Moderators only, confirmed by the request, and limited per
 * account and hour (each use is a post on somebody's channel).
 */
export async function publishAgain(
  db: Database,
  env: Env,
  user: User,
  publicationId: string,
): Promise<ProcessingJob> {
  const entry = await entryForModerator(db, env, user, publicationId);
  const [job] = await db.select().from(processingJobs).where(eq(processingJobs.id, entry.jobId));
  const plan = job?.plan as Plan | null | undefined;
  if (!job || !plan?.branches[entry.branch]) {
    throw AppError.conflict(
      "The job that published this no longer holds its plan, so it cannot be repeated.",
    );
  }
  // The branch's first step in that job, with the input it got: a job that entered the branch late (a retry of
  // its distribution) is repeated from there.
  const [first] = await db
    .select({ position: processingSteps.position, input: processingSteps.input })
    .from(processingSteps)
    .where(and(eq(processingSteps.jobId, job.id), eq(processingSteps.branch, entry.branch)))
    .orderBy(asc(processingSteps.position))
    .limit(1);
  if (!first || first.input === null) {
    throw AppError.conflict("The job that published this kept no input for its branch to publish again.");
  }
  const used = await consumeLimit(
    db,
    `republish:${user.nearAccountId.toLowerCase()}`,
    env.REPUBLISH_PER_ACCOUNT_PER_HOUR,
    HOUR_MS,
  );
  if (!used.allowed) {
    const minutes = Math.max(1, Math.ceil(used.retryAfterMs / 60_000));
    throw new AppError(
      "RATE_LIMITED",
      `You have published ${env.REPUBLISH_PER_ACCOUNT_PER_HOUR} posts again this hour; try again in ${minutes} min.`,
    );
  }
  return createFollowUp(db, job, user, "republish", {
    ...plan,
    entries: [{ chain: entry.branch, from: first.position, input: first.input }],
  });
}

/**
 * Retract an older copy: one entry still published beside a newer one of its branch (a duplicate, or the first
 * post after "publish again"), taken back by a retraction job of its own. The post stays approved and its live
 * entry stays; retracting that one is retracting the post.
 */
export async function retractOlderCopy(
  db: Database,
  env: Env,
  user: User,
  publicationId: string,
): Promise<RetractCopyAnswer> {
  const entry = await entryForModerator(db, env, user, publicationId);
  if (entry.status !== "published") {
    throw AppError.conflict("This publication is no longer published: there is nothing to take back.");
  }
  const live = await liveEntryOf(db, entry.submissionId, entry.feedId, entry.branchKey);
  if (!live || live.id === entry.id) {
    throw AppError.conflict(
      "This is the live publication of its channel (re-runs edit it); retract the post to take it down.",
    );
  }
  await assertNoneRunning(db, {
    recapId: null,
    submissionId: entry.submissionId,
    feedId: entry.feedId,
    kind: "retraction",
  });
  const retractionJobId = await db.transaction((tx) =>
    requestRetraction(tx, {
      submissionId: entry.submissionId,
      feedId: entry.feedId,
      entries: [entry],
      requestedBy: user.nearAccountId,
    }),
  );
  return { publicationId: entry.id, retractionJobId };
}
