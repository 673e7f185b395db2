import { normaliseFeedId, type RetractAnswer, type RetractRequest } from "@curate/core";
import { and, eq, ne, sql } from "drizzle-orm";
import { recordActivity } from "../activity/service.ts";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { moderationHistory, processingJobs, submissionFeeds } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { reevaluateCuratorsOf } from "../governance/trust.ts";
import { logLater, withModerationLog } from "../moderation-log/journal.ts";
import { requestRetraction } from "../processing/retraction.ts";
import { cancelScheduledSends } from "../processing/schedule.ts";
import { livePublications } from "../publications/ledger.ts";
import { moderationRecordOf } from "./service.ts";

/**
 * A moderator takes an approved post back: in one transaction its link becomes rejected, the history records the
 * retraction (who, the note), jobs that had not started publishing are cancelled, and a retraction job is asked to
 * remove every publication the ledger holds for it. A job publishing at this moment is a 409 (retract once it has
 * finished), so nothing can be published after the retraction counted its publications.
 */
export async function retractSubmission(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  request: RetractRequest,
): Promise<RetractAnswer> {
  const feedId = normaliseFeedId(request.feedId);
  const { submissionId } = request;
  const right = await moderationRight(db, env, feedId, user);
  if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
  if (!right.canModerate) throw AppError.forbidden(`You are not a moderator of "${feedId}".`);

  return withModerationLog(db, async (tx) => {
    const [link] = await tx
      .select({ status: submissionFeeds.status })
      .from(submissionFeeds)
      .where(and(eq(submissionFeeds.submissionId, submissionId), eq(submissionFeeds.feedId, feedId)))
      .for("update");
    if (!link) throw AppError.notFound(`Submission "${submissionId}" is not in feed "${feedId}".`);
    if (link.status !== "approved") {
      throw AppError.conflict(
        `Submission "${submissionId}" is ${link.status} in "${feedId}": only an approved post can be retracted.`,
      );
    }
    const cancelled = await tx
      .update(processingJobs)
      .set({
        status: "cancelled",
        completedAt: sql`now()`,
        updatedAt: sql`now()`,
        note: `Cancelled: ${user.nearAccountId} retracted the post before it was published.`,
      })
      .where(
        and(
          eq(processingJobs.submissionId, submissionId),
          eq(processingJobs.feedId, feedId),
          eq(processingJobs.status, "pending"),
          ne(processingJobs.kind, "retraction"),
        ),
      )
      .returning({ id: processingJobs.id });
    await cancelScheduledSends(
      tx,
      cancelled.map((job) => job.id),
      `Retracted by ${user.nearAccountId} before it was published.`,
    );
    // After the cancel: a job a worker claimed meanwhile shows here as processing.
    const [running] = await tx
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(
        and(
          eq(processingJobs.submissionId, submissionId),
          eq(processingJobs.feedId, feedId),
          eq(processingJobs.status, "processing"),
        ),
      )
      .limit(1);
    if (running) {
      throw AppError.conflict(
        "A job for this post is running right now; retract it once that job has finished.",
      );
    }

    await tx
      .update(submissionFeeds)
      .set({ status: "rejected", updatedAt: sql`now()` })
      .where(and(eq(submissionFeeds.submissionId, submissionId), eq(submissionFeeds.feedId, feedId)));
    const note = request.note?.trim() || null;
    const [history] = await tx
      .insert(moderationHistory)
      .values({
        submissionId,
        feedId,
        moderatorAccountId: user.nearAccountId,
        moderatorAccountIdType: "near",
        source: right.reason === "super_admin" ? "super_admin_direct" : "ui",
        action: "reject",
        retraction: true,
        note,
      })
      .returning();
    await recordActivity(tx, {
      userId: user.nearAccountId,
      type: "CONTENT_REJECTION",
      feedId,
      submissionId,
      data: {
        moderationDetails: {
          moderationId: history.id,
          action: "reject",
          retraction: true,
          source: history.source,
          moderatorAccountIdType: "near",
          note,
        },
      },
    });

    const entries = await livePublications(tx, submissionId, feedId);
    logLater(tx, [
      {
        feedId,
        action: "retract",
        via: "app",
        actor: { account: user.nearAccountId, handle: null },
        item: submissionId,
        note,
        details: { publications: entries.length, cancelledJobs: cancelled.length },
      },
    ]);
    // A retraction counts against the curator's earned trust at once.
    await reevaluateCuratorsOf(tx, [{ submissionId, feedId }]);
    const retractionJobId = entries.length
      ? await requestRetraction(tx, { submissionId, feedId, entries, requestedBy: user.nearAccountId })
      : null;
    return {
      submissionId,
      feedId,
      status: "rejected",
      retractionJobId,
      publications: entries.length,
      cancelledJobs: cancelled.length,
      moderation: { ...moderationRecordOf(history), retraction: true },
    };
  });
}
