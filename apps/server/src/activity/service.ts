import type { ActivityTimeRange, ActivityType } from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { activities } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";

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

const RANGE_MS: Record<ActivityTimeRange, number | null> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
  all: null,
};

export interface ActivityQuery {
  timeRange: ActivityTimeRange;
  /** Undefined: every type; empty: the types asked for were all unknown, so nothing matches. */
  types?: ActivityType[];
  fromDate?: Date;
  toDate?: Date;
  limit: number;
  offset: number;
  sortOrder: "asc" | "desc";
}

export interface ActivityItem {
  id: number;
  user_id: string;
  type: ActivityType;
  timestamp: string;
  feed_id: string | null;
  submission_id: string | null;
  data: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

/** A user's activity, newest first by default, paged by offset (the spec's activity list query). */
export async function listUserActivity(db: Database, userId: string, query: ActivityQuery, now = new Date()) {
  const filters: SQL[] = [sql`user_id = ${userId}`];
  const window = RANGE_MS[query.timeRange];
  if (window !== null) filters.push(sql`timestamp >= ${new Date(now.getTime() - window).toISOString()}`);
  if (query.fromDate) filters.push(sql`timestamp >= ${query.fromDate.toISOString()}`);
  if (query.toDate) filters.push(sql`timestamp <= ${query.toDate.toISOString()}`);
  if (query.types?.length === 0) filters.push(sql`false`);
  else if (query.types)
    filters.push(
      sql`type in (${sql.join(
        query.types.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  const where = sql.join(filters, sql` and `);
  const direction = query.sortOrder === "asc" ? sql`asc` : sql`desc`;
  const [row] = await queryRows<{ total: number; items: ActivityItem[] | null }>(
    db,
    sql`with page as (
      select * from activities where ${where} order by timestamp ${direction}, id ${direction}
      limit ${query.limit + 1} offset ${query.offset}
    )
    select (select count(*) from activities where ${where})::int as total,
      (select json_agg(json_build_object(
        'id', id, 'user_id', user_id, 'type', type, 'timestamp', ${isoUtc("timestamp")},
        'feed_id', feed_id, 'submission_id', submission_id, 'data', data, 'metadata', metadata,
        'created_at', ${isoUtc("created_at")}, 'updated_at', ${isoUtc("updated_at")}
      ) order by timestamp ${direction}, id ${direction}) from page) as items`,
  );
  const items = row?.items ?? [];
  const hasNextPage = items.length > query.limit;
  return {
    items: hasNextPage ? items.slice(0, query.limit) : items,
    pagination: {
      page: Math.floor(query.offset / query.limit),
      limit: query.limit,
      offset: query.offset,
      hasNextPage,
      totalCount: row?.total ?? 0,
    },
  };
}

/**
 * A user's standing: position among curators by all-time submissions (then approvals), and among
 * moderators by decisions made; null where they have none.
 */
export async function getUserRanks(db: Database, userId: string) {
  const [row] = await queryRows<{ curatorRank: number | null; approverRank: number | null }>(
    db,
    sql`select
      (select 1 + (select count(*) from curator_stats o where o.submission_count > c.submission_count
          or (o.submission_count = c.submission_count and o.approval_count > c.approval_count))
        from curator_stats c where lower(c.curator_username) = lower(${userId}) and c.submission_count > 0)::int
        as "curatorRank",
      (select 1 + (select count(*) from moderator_stats o where o.total_count > m.total_count)
        from moderator_stats m where lower(m.moderator_account_id) = lower(${userId}) and m.total_count > 0)::int
        as "approverRank"`,
  );
  return { curatorRank: row?.curatorRank ?? null, approverRank: row?.approverRank ?? null };
}

/** Site-wide totals, all from kept counters. */
export async function getSiteStats(db: Database) {
  const [row] = await queryRows<{
    totalUsers: number;
    totalActivities: number;
    pendingSubmissions: number;
    approvedSubmissions: number;
    rejectedSubmissions: number;
  }>(
    db,
    sql`select (select count(*) from users)::int as "totalUsers",
      coalesce((select count from site_counters where name = 'activities'), 0)::int as "totalActivities",
      coalesce((select count from submission_counts where scope = '*' and status = 'pending'), 0)::int as "pendingSubmissions",
      coalesce((select count from submission_counts where scope = '*' and status = 'approved'), 0)::int as "approvedSubmissions",
      coalesce((select count from submission_counts where scope = '*' and status = 'rejected'), 0)::int as "rejectedSubmissions"`,
  );
  return {
    totalUsers: row.totalUsers,
    totalSubmissions: row.pendingSubmissions + row.approvedSubmissions + row.rejectedSubmissions,
    totalActivities: row.totalActivities,
    pendingSubmissions: row.pendingSubmissions,
    approvedSubmissions: row.approvedSubmissions,
    rejectedSubmissions: row.rejectedSubmissions,
  };
}
