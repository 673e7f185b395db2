import { OVERDUE_COUNT_CAP, type QueueHealth } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { REFRESH, refreshedAt } from "../reputation/service.ts";

/** A feed's service level from its stored config: hours to decide within, or null. */
export function decideWithinHoursOf(config: Record<string, unknown> | null | undefined): number | null {
  const moderation = config?.moderation as { decideWithinHours?: unknown } | undefined;
  const hours = moderation?.decideWithinHours;
  return typeof hours === "number" && Number.isInteger(hours) && hours > 0 ? hours : null;
}

/**
 * How long a feed's queue waits: its pending count (kept by trigger), its oldest pending post (the first row of the
 * (feed, status, submitted_at) index), the median time to a decision as of its last recomputation, and how many
 * pending posts are past the feed's service level (counted up to OVERDUE_COUNT_CAP).
 */
export async function queueHealth(db: Database, feedId: string, now = new Date()): Promise<QueueHealth> {
  const id = feedId.toLowerCase();
  const [feed] = await queryRows<{ config: Record<string, unknown> }>(
    db,
    sql`select config from feeds where id = ${id}`,
  );
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
  const hours = decideWithinHoursOf(feed.config);
  const dueBefore = hours ? new Date(now.getTime() - hours * 3_600_000) : null;
  const [row] = await queryRows<Omit<QueueHealth, "feedId" | "decideWithinHours" | "medianAsOf">>(
    db,
    sql`select
        (select coalesce(sum(count), 0) from submission_counts where scope = ${id} and status = 'pending')::int
          as "pendingCount",
        oldest.at as "oldestPendingAt", oldest.id as "oldestPendingSubmissionId",
        q.median_decision_seconds as "medianDecisionSeconds", coalesce(q.decisions_sampled, 0) as "decisionsSampled",
        ${
          dueBefore
            ? sql`(select count(*) from (select 1 from submission_feeds where feed_id = ${id} and status = 'pending'
                and submitted_at < ${dueBefore} limit ${OVERDUE_COUNT_CAP}) overdue)::int`
            : sql`0`
        } as "overdueCount"
      from (select 1) one
      left join lateral (
        select ${isoUtc("submitted_at")} as at, submission_id as id from submission_feeds
        where feed_id = ${id} and status = 'pending' order by submitted_at, submission_id limit 1
      ) oldest on true
      left join feed_queue_stats q on q.feed_id = ${id}`,
  );
  return {
    feedId: id,
    ...row,
    medianAsOf: await refreshedAt(db, REFRESH.queueMedians),
    decideWithinHours: hours,
  };
}
