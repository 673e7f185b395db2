import { randomUUID } from "node:crypto";
import type { ModerationOutcome } from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import { recordActivity } from "../activity/service.ts";
import type { Database } from "../db/index.ts";
import { moderationHistory, processingJobs, submissionFeeds } from "../db/schema.ts";
import { AppError } from "../http/errors.ts";

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

  let processingJobId: string | null = null;
  if (input.action === "approve") {
    const [job] = await tx
      .insert(processingJobs)
      .values({
        id: randomUUID(),
        submissionId: input.submissionId,
        feedId: input.feedId,
        status: "pending",
        idempotencyKey: `approval:${input.submissionId}:${input.feedId}`,
      })
      .onConflictDoNothing({ target: processingJobs.idempotencyKey })
      .returning({ id: processingJobs.id });
    processingJobId = job?.id ?? null;
  }

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
