import { type ModerateRequest, type ModerationOutcome, normaliseFeedId } from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import { recordActivity } from "../activity/service.ts";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { moderationHistory, submissionFeeds } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { requestProcessing } from "../processing/requests.ts";

type ModerationRow = typeof moderationHistory.$inferInsert;

export interface ModerationInput {
  submissionId: string;
  feedId: string;
  action: "approve" | "reject";
  moderatorAccountId: string;
  moderatorAccountIdType: ModerationRow["moderatorAccountIdType"];
  source: ModerationRow["source"];
  note?: string | null;
}

/**
 * Decides a pending feed link, in the caller's transaction: the status changes only if it is still pending
 * (so a second approval is a 409, never a second distribution), and the history row, activity and — on
 * approval — the pipeline's processing job request are written with it (statistics follow by trigger).
 */
export async function moderateLink(tx: Database, input: ModerationInput): Promise<ModerationOutcome> {
  const status = input.action === "approve" ? "approved" : "rejected";
  const [link] = await tx
    .update(submissionFeeds)
    .set({ status, updatedAt: sql`now()` })
    .where(
      and(
        eq(submissionFeeds.submissionId, input.submissionId),
        eq(submissionFeeds.feedId, input.feedId),
        eq(submissionFeeds.status, "pending"),
      ),
    )
    .returning({ feedId: submissionFeeds.feedId });

  if (!link) {
    const [existing] = await tx
      .select({ status: submissionFeeds.status })
      .from(submissionFeeds)
      .where(
        and(eq(submissionFeeds.submissionId, input.submissionId), eq(submissionFeeds.feedId, input.feedId)),
      );
    if (!existing) {
      throw AppError.notFound(`Submission "${input.submissionId}" is not in feed "${input.feedId}".`);
    }
    throw AppError.conflict(
      `Submission "${input.submissionId}" is already ${existing.status} in "${input.feedId}".`,
    );
  }

  const note = input.note?.trim() || null;
  const [history] = await tx
    .insert(moderationHistory)
    .values({
      submissionId: input.submissionId,
      feedId: input.feedId,
      moderatorAccountId: input.moderatorAccountId,
      moderatorAccountIdType: input.moderatorAccountIdType,
      source: input.source,
      action: input.action,
      note,
    })
    .returning();

  await recordActivity(tx, {
    userId: input.moderatorAccountId,
    type: input.action === "approve" ? "CONTENT_APPROVAL" : "CONTENT_REJECTION",
    feedId: input.feedId,
    submissionId: input.submissionId,
    data: {
      moderationDetails: {
        moderationId: history.id,
        action: input.action,
        source: input.source,
        moderatorAccountIdType: input.moderatorAccountIdType,
        note,
      },
    },
  });

  const processingJobId =
    input.action === "approve"
      ? await requestProcessing(tx, {
          submissionId: input.submissionId,
          feedId: input.feedId,
          moderationId: history.id,
        })
      : null;

  return {
    submissionId: input.submissionId,
    feedId: input.feedId,
    status,
    processingJobId,
    moderation: {
      id: history.id,
      submissionId: history.submissionId,
      feedId: history.feedId,
      moderatorAccountId: history.moderatorAccountId,
      moderatorAccountIdType: history.moderatorAccountIdType,
      source: history.source,
      action: history.action,
      note: history.note,
      createdAt: history.createdAt.toISOString(),
    },
  };
}

/**
 * A moderator's decision in the web app: the actor is the session's user (whatever the request claims), who
 * must moderate the feed; the link is decided in one transaction.
 */
export async function decideSubmission(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  request: ModerateRequest,
): Promise<ModerationOutcome> {
  const feedId = normaliseFeedId(request.feedId);
  const right = await moderationRight(db, env, feedId, user);
  if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
  if (!right.canModerate) throw AppError.forbidden(`You are not a moderator of "${feedId}".`);
  return db.transaction((tx) =>
    moderateLink(tx, {
      submissionId: request.submissionId,
      feedId,
      action: request.action,
      note: request.note,
      moderatorAccountId: user.nearAccountId,
      moderatorAccountIdType: "near",
      source: right.reason === "super_admin" ? "super_admin_direct" : "ui",
    }),
  );
}
