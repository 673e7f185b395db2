import { ALL_FEED_ID, type ApproverReputation, type Paged, QUEUE_MEDIAN_WINDOW_DAYS } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { findFeed } from "../feeds/service.ts";

/** The names under which stat_refreshes records each scheduled recomputation ("as of"). */
export const REFRESH = { approverMedians: "approver_medians", queueMedians: "queue_medians" } as const;

/**
 * Recomputes the medians that triggers cannot keep (a median needs every value): each approver's median time to
 * decide, per feed and overall, over the decisions that count; and each feed's median time to a decision over the
 * last QUEUE_MEDIAN_WINDOW_DAYS. Runs on a schedule (worker/host.ts); each answer says when it was computed.
 */
export async function refreshMedians(db: Database, now = new Date()): Promise<void> {
  const windowStart = new Date(now.getTime() - QUEUE_MEDIAN_WINDOW_DAYS * 86_400_000);
  await db.transaction(async (tx) => {
    await tx.execute(sql`with medians as (
        select coalesce(feed_id, '*') as scope, moderator_account_id,
          round(percentile_cont(0.5) within group (order by wait_seconds))::int as median
        from moderation_history
        where counts and undone_at is null and wait_seconds is not null
        group by grouping sets ((feed_id, moderator_account_id), (moderator_account_id))
      )
      update approver_reputation a set median_decision_seconds = m.median
      from medians m
      where a.scope = m.scope and a.moderator_account_id = m.moderator_account_id
        and a.median_decision_seconds is distinct from m.median`);
    await tx.execute(sql`insert into stat_refreshes (name, refreshed_at) values (${REFRESH.approverMedians}, ${now})
      on conflict (name) do update set refreshed_at = excluded.refreshed_at`);
  });
  await db.transaction(async (tx) => {
    // Every decision of the window, by anyone: the queue's own pace, not one approver's.
    await tx.execute(sql`with medians as (
        select h.feed_id, round(percentile_cont(0.5) within group (order by h.wait_seconds))::int as median,
          count(*)::int as sampled
        from moderation_history h
        where h.created_at >= ${windowStart} and h.created_at <= ${now} and h.undone_at is null
          and h.wait_seconds is not null
        group by h.feed_id
      )
      insert into feed_queue_stats (feed_id, median_decision_seconds, decisions_sampled)
      select f.id, m.median, coalesce(m.sampled, 0) from feeds f left join medians m on m.feed_id = f.id
      on conflict (feed_id) do update set median_decision_seconds = excluded.median_decision_seconds,
        decisions_sampled = excluded.decisions_sampled`);
    await tx.execute(sql`insert into stat_refreshes (name, refreshed_at) values (${REFRESH.queueMedians}, ${now})
      on conflict (name) do update set refreshed_at = excluded.refreshed_at`);
  });
}

/** When a scheduled recomputation last ran, as an ISO string; null if never. */
export async function refreshedAt(db: Database, name: string): Promise<string | null> {
  const [row] = await queryRows<{ at: string }>(
    db,
    sql`select ${isoUtc("refreshed_at")} as at from stat_refreshes where name = ${name}`,
  );
  return row?.at ?? null;
}

/**
 * Approvers by the decisions that count, per feed or overall, a page at a time; with their overturned decisions and
 * their median time to decide as of its last recomputation.
 */
export async function listApprovers(
  db: Database,
  query: { feedId?: string; page: number; limit: number },
): Promise<Paged<ApproverReputation>> {
  const feedId = query.feedId?.toLowerCase() || undefined;
  if (feedId !== undefined) {
    const feed = feedId === ALL_FEED_ID ? null : await findFeed(db, feedId);
    if (!feed) throw AppError.notFound(`Feed "${query.feedId}" not found.`);
  }
  const scope = feedId ?? "*";
  const [rows, [total], medianAsOf] = await Promise.all([
    queryRows<Omit<ApproverReputation, "medianAsOf">>(
      db,
      sql`select moderator_account_id as "moderatorAccountId", decision_count as "decisionCount",
          overturned_count as "overturnedCount", median_decision_seconds as "medianDecisionSeconds"
        from approver_reputation where scope = ${scope} and decision_count > 0
        order by decision_count desc nulls last, moderator_account_id
        limit ${query.limit + 1} offset ${query.page * query.limit}`,
    ),
    queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from approver_reputation where scope = ${scope} and decision_count > 0`,
    ),
    refreshedAt(db, REFRESH.approverMedians),
  ]);
  return {
    items: rows.slice(0, query.limit).map((row) => ({ ...row, medianAsOf })),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: rows.length > query.limit,
      totalCount: total?.count ?? 0,
    },
  };
}
