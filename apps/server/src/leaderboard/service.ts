import { ALL_FEED_ID, type LeaderboardEntry, type TimeRange } from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { findFeed } from "../feeds/service.ts";

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

const ORDER = sql`submission_count desc, approval_count desc, curator_username`;

/**
 * The ranked curators (the first `limit`) from the trigger-kept statistics: all-time totals, per-feed totals,
 * the month's roll-up, or the daily rows of a shorter range — never the raw links (docs/decisions/0004).
 * This Month is the calendar month of `now` (UTC).
 */
function rankedCurators(query: LeaderboardQuery, since: string | null): SQL {
  if (!since && !query.feedId) {
    return sql`select curator_username, curator_id, submission_count, approval_count, rejection_count
      from curator_stats order by ${ORDER} limit ${query.limit}`;
  }
  if (!since) {
    return sql`select curator_username, curator_id, submission_count, approval_count, rejection_count
      from feed_user_stats where feed_id = ${query.feedId}
      order by ${ORDER} limit ${query.limit}`;
  }
  if (query.timeRange === "month") {
    // The month's roll-up in rank order (all feeds under scope "*"); "*" as a curator is a feed's month total.
    return sql`select curator_username, curator_id, submission_count, approval_count, rejection_count
      from curator_monthly_stats where scope = ${query.feedId ?? "*"} and month = ${since}::date
        and curator_username <> '*' and submission_count > 0
      order by ${ORDER} limit ${query.limit}`;
  }
  const feedFilter = query.feedId ? sql` and feed_id = ${query.feedId}` : sql``;
  return sql`select curator_username, max(curator_id) as curator_id, sum(submission_count)::int as submission_count,
      sum(approval_count)::int as approval_count, sum(rejection_count)::int as rejection_count
    from curator_daily_stats where day >= ${since}::date${feedFilter}
    group by curator_username having sum(submission_count) > 0
    order by ${ORDER} limit ${query.limit}`;
}

/** A curator's strongest feeds shown per row; a prolific curator may have posted to hundreds. */
export const TOP_FEEDS_PER_CURATOR = 10;

/** Each ranked curator's submissions per feed (their top feeds), and those feeds' totals, in the same scope. */
function perFeed(query: LeaderboardQuery, since: string | null): { counts: SQL; totals: SQL } {
  const feedFilter = query.feedId ? sql` and feed_id = ${query.feedId}` : sql``;
  const top = (rows: SQL) => sql`select curator_username, feed_id, count from (
      select *, row_number() over (partition by curator_username order by count desc, feed_id) as position
      from (${rows}) all_rows
    ) numbered where position <= ${TOP_FEEDS_PER_CURATOR}`;
  if (!since) {
    return {
      // Each curator's strongest feeds straight from the (curator, count) index, never all their feeds.
      counts: sql`select r.curator_username, f.feed_id, f.submission_count as count from ranked r
        cross join lateral (
          select feed_id, submission_count from feed_user_stats s
          where s.curator_username = r.curator_username and s.submission_count > 0${feedFilter}
          order by s.submission_count desc, s.feed_id limit ${TOP_FEEDS_PER_CURATOR}
        ) f`,
      totals: sql`select scope as feed_id, sum(count)::int as total from submission_counts
        where scope in (select feed_id from per_feed) group by scope`,
    };
  }
  if (query.timeRange === "month") {
    const scopeFilter = query.feedId ? sql` and m.scope = ${query.feedId}` : sql` and m.scope <> '*'`;
    return {
      counts: sql`select r.curator_username, f.feed_id, f.count from ranked r
        cross join lateral (
          select m.scope as feed_id, m.submission_count as count from curator_monthly_stats m
          where m.month = ${since}::date and m.curator_username = r.curator_username
            and m.submission_count > 0${scopeFilter}
          order by m.submission_count desc, m.scope limit ${TOP_FEEDS_PER_CURATOR}
        ) f`,
      totals: sql`select scope as feed_id, submission_count as total from curator_monthly_stats
        where month = ${since}::date and curator_username = '*' and scope in (select feed_id from per_feed)`,
    };
  }
  return {
    counts:
      top(sql`select curator_username, feed_id, sum(submission_count)::int as count from curator_daily_stats
      where day >= ${since}::date and curator_username in (select curator_username from ranked)${feedFilter}
      group by curator_username, feed_id having sum(submission_count) > 0`),
    totals: sql`select feed_id, sum(submission_count)::int as total from curator_daily_stats
      where day >= ${since}::date and feed_id in (select feed_id from per_feed) group by feed_id`,
  };
}

/** Curators ordered by submissions then approvals; each feed link counts once in its own feed. */
export async function getLeaderboard(
  db: Database,
  query: LeaderboardQuery,
  now = new Date(),
): Promise<LeaderboardEntry[]> {
  const normalized = { ...query, feedId: query.feedId?.toLowerCase() };
  // A feed filter names a real feed, matched case-insensitively; the hidden catch-all feed is not one.
  if (normalized.feedId !== undefined) {
    const feed = normalized.feedId === ALL_FEED_ID ? null : await findFeed(db, normalized.feedId);
    if (!feed) throw AppError.notFound(`Feed "${query.feedId}" not found.`);
  }
  const start = timeRangeStart(query.timeRange, now);
  const since = start ? start.toISOString().slice(0, 10) : null;
  const { counts, totals } = perFeed(normalized, since);
  return queryRows<LeaderboardEntry>(
    db,
    sql`with ranked as materialized (${rankedCurators(normalized, since)}),
    per_feed as materialized (${counts}),
    feed_totals as (${totals}),
    feed_rows as (
      select p.curator_username, json_agg(
          json_build_object('feedId', p.feed_id, 'count', p.count, 'totalInFeed', coalesce(t.total, p.count))
          order by p.count desc, p.feed_id) as feeds
      from per_feed p left join feed_totals t using (feed_id)
      group by p.curator_username
    )
    select (row_number() over (order by r.submission_count desc, r.approval_count desc, r.curator_username))::int
        as "rank",
      coalesce(r.curator_id, r.curator_username) as "curatorId", r.curator_username as "curatorUsername",
      r.submission_count::int as "submissionCount", r.approval_count::int as "approvalCount",
      r.rejection_count::int as "rejectionCount", coalesce(f.feeds, '[]'::json) as "feedSubmissions"
    from ranked r left join feed_rows f using (curator_username)
    where r.submission_count > 0
    order by r.submission_count desc, r.approval_count desc, r.curator_username`,
  );
}
