import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { activities, feedUserStats } from "../db/schema.ts";

type ActivityType = (typeof activities.$inferInsert)["type"];

export async function recordActivity(
  db: Database,
  activity: {
    userId: string;
    type: ActivityType;
    feedId: string;
    submissionId: string;
    data?: Record<string, unknown>;
  },
) {
  await db.insert(activities).values(activity);
}

/** Adds to a curator's per-feed counters (submissions, approvals, rejections) in the caller's transaction. */
export async function bumpCuratorStats(
  db: Database,
  feedId: string,
  curator: { username: string | null; id: string | null },
  delta: { submissions?: number; approvals?: number; rejections?: number },
) {
  if (!curator.username) return;
  const submissions = delta.submissions ?? 0;
  const approvals = delta.approvals ?? 0;
  const rejections = delta.rejections ?? 0;
  await db
    .insert(feedUserStats)
    .values({
      feedId,
      curatorUsername: curator.username,
      curatorId: curator.id,
      submissionCount: submissions,
      approvalCount: approvals,
      rejectionCount: rejections,
    })
    .onConflictDoUpdate({
      target: [feedUserStats.feedId, feedUserStats.curatorUsername],
      set: {
        submissionCount: sql`${feedUserStats.submissionCount} + ${submissions}`,
        approvalCount: sql`${feedUserStats.approvalCount} + ${approvals}`,
        rejectionCount: sql`${feedUserStats.rejectionCount} + ${rejections}`,
        updatedAt: sql`now()`,
      },
    });
}
