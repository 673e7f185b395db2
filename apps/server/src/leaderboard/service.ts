import type { LeaderboardEntry, TimeRange } from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";

/** Start of a time range in UTC: midnight today, Monday of this week, the first of this month. */
export function timeRangeStart(range: TimeRange, now = new Date()): Date | null {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (range) {
    case "all":
      return null;
    case "today":
      return midnight;
    case "week": {
      const daysSinceMonday = (midnight.getUTCDay() + 6) % 7;
      return new Date(midnight.getTime() - daysSinceMonday * 86_400_000);
    }
    case "month":
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  }
}

export interface LeaderboardQuery {
  timeRange: TimeRange;
  feedId?: string;
  limit: number;
}

/** Curators ordered by submissions then approvals; each feed link counts once in its own feed. */
export async function getLeaderboard(db: Database, query: LeaderboardQuery): Promise<LeaderboardEntry[]> {
  const filters: SQL[] = [sql`curator_username is not null`];
  if (query.feedId) filters.push(sql`feed_id = ${query.feedId.toLowerCase()}`);
  const since = timeRangeStart(query.timeRange);
  if (since) filters.push(sql`submitted_at >= ${since.toISOString()}`);

  return queryRows<LeaderboardEntry>(
    db,
    sql`with scoped as (
      select curator_username, curator_id, feed_id, status from submission_feeds
      where ${sql.join(filters, sql` and `)}
    ),
    ranked as (
      select curator_username, max(curator_id) as curator_id,
        count(*)::int as submission_count,
        (count(*) filter (where status = 'approved'))::int as approval_count,
        (count(*) filter (where status = 'rejected'))::int as rejection_count
      from scoped group by curator_username
      order by submission_count desc, approval_count desc, curator_username
      limit ${query.limit}
    ),
    per_feed as (
      select curator_username, feed_id, count(*)::int as count from scoped
      where curator_username in (select curator_username from ranked)
      group by curator_username, feed_id
    ),
    feed_totals as (select feed_id, count(*)::int as total from scoped group by feed_id)
    select coalesce(r.curator_id, r.curator_username) as "curatorId", r.curator_username as "curatorUsername",
      r.submission_count as "submissionCount", r.approval_count as "approvalCount",
      r.rejection_count as "rejectionCount",
      coalesce((
        select json_agg(json_build_object('feedId', p.feed_id, 'count', p.count, 'totalInFeed', t.total)
          order by p.count desc, p.feed_id)
        from per_feed p join feed_totals t using (feed_id)
        where p.curator_username = r.curator_username
      ), '[]'::json) as "feedSubmissions"
    from ranked r
    order by r.submission_count desc, r.approval_count desc, r.curator_username`,
  );
}
