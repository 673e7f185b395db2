import {
  ALL_FEED_ID,
  approvalRate,
  displayHandle,
  isUploadReference,
  type LeaderboardEntry,
  type LeaderboardSort,
  splitHandleKey,
  type TimeRange,
} from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { findFeed } from "../feeds/service.ts";
import { LINKED_CURATOR_KEYS } from "../users/curators.ts";

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
  /** Counts (the default) or the reputation score (all-time only). */
  sort?: LeaderboardSort;
}

/** Spelled as the rank indexes are (NULLS LAST: a bare DESC means NULLS FIRST, which no index is read for). */
const ORDER = sql`submission_count desc nulls last, approval_count desc nulls last, curator_username`;
const STATS = sql`curator_username, curator_id, submission_count, approval_count, rejection_count`;

/**
 * Rows that may make the first `limit` entries once linked handles merge: the first `limit` handles nobody
 * linked (any handle below them is outranked by `limit` distinct entries whatever merges), and every linked
 * handle's row (an account's sum may outrank each of its handles). Straight from the rank index, never a scan.
 */
function rankedOrLinked(table: SQL, where: SQL, limit: number): SQL {
  return sql`(select ${STATS} from ${table} s where ${where}
      and not exists (select 1 from linked l where l.handle = s.curator_username)
      order by ${ORDER} limit ${limit})
    union all
    (select ${STATS} from ${table} s join linked l on l.handle = s.curator_username where ${where})`;
}

/**
 * The roll-up that holds a whole range as one row per curator and scope (docs/decisions/0014, 0035): the week's
 * or the month's, keyed by the range's first day. Today stays on daily rows, which are already one day's.
 */
function rollupOf(range: TimeRange): { table: SQL; period: SQL } | null {
  if (range === "month") return { table: sql`curator_monthly_stats`, period: sql`month` };
  if (range === "week") return { table: sql`curator_weekly_stats`, period: sql`week` };
  return null;
}

/**
 * The curators' rows in scope from the trigger-kept statistics: all-time totals, per-feed totals, the week's or
 * month's roll-up, or a day's daily rows — never the raw links (docs/decisions/0004). This Week and This Month
 * are the calendar week (from Monday) and month of `now` (UTC).
 */
function curatorRows(query: LeaderboardQuery, since: string | null): SQL {
  if (!since && !query.feedId) return rankedOrLinked(sql`curator_stats`, sql`true`, query.limit);
  if (!since) {
    return rankedOrLinked(sql`feed_user_stats`, sql`s.feed_id = ${query.feedId}`, query.limit);
  }
  const rollup = rollupOf(query.timeRange);
  if (rollup) {
    // All feeds under scope "*"; "*" as a curator is a feed's total for the range.
    return rankedOrLinked(
      rollup.table,
      sql`s.scope = ${query.feedId ?? "*"} and s.${rollup.period} = ${since}::date and s.curator_username <> '*'
        and s.submission_count > 0`,
      query.limit,
    );
  }
  const feedFilter = query.feedId ? sql` and feed_id = ${query.feedId}` : sql``;
  // The range's sums once, then the same cut as above, so merging groups a page of rows rather than every curator.
  return sql`select * from (with daily as materialized (
      select curator_username, max(curator_id) as curator_id, sum(submission_count)::int as submission_count,
        sum(approval_count)::int as approval_count, sum(rejection_count)::int as rejection_count
      from curator_daily_stats where day >= ${since}::date${feedFilter}
      group by curator_username having sum(submission_count) > 0
    ) ${rankedOrLinked(sql`daily`, sql`true`, query.limit)}) in_range`;
}

const BY_COUNTS = sql`c.submission_count desc, c.approval_count desc, c.curator_username`;

/** One entry per account (its handles summed, its strongest handle naming it), else per handle; ranked by counts. */
function rankedByCounts(query: LeaderboardQuery, since: string | null): SQL {
  return sql`candidates as materialized (${curatorRows(query, since)}),
    ranked as materialized (
      select (array_agg(c.curator_username order by ${BY_COUNTS}))[1] as curator_username,
        (array_agg(c.curator_id order by ${BY_COUNTS}))[1] as curator_id,
        array_agg(c.curator_username order by ${BY_COUNTS}) as handles,
        sum(c.submission_count)::int as submission_count, sum(c.approval_count)::int as approval_count,
        sum(c.rejection_count)::int as rejection_count
      from candidates c left join linked l on l.handle = c.curator_username
      group by coalesce(l.entry, c.curator_username)
      having sum(c.submission_count) > 0
      order by ${ORDER} limit ${query.limit}
    )`;
}

const REPUTATION = sql`curator_username, approved_count, rejected_count, score`;
const BY_SCORE = sql`c.score desc, c.approved_count desc, c.curator_username`;

/**
 * The same entries ranked by reputation score (decision 0030): the first `limit` unlinked handles straight from the
 * score index, plus every linked handle's row (an account's score is that of its handles' decisions together, which
 * may beat each of them), merged, scored and cut; then their counts from the statistics of the same scope.
 */
function rankedByScore(query: LeaderboardQuery): SQL {
  // The columns are never null, but only an order spelled as the rank index is (NULLS LAST; a bare DESC means NULLS
  // FIRST) is read from it: otherwise every handle of the scope is read and sorted (20,000 at 1M, 35 ms).
  const scope = query.feedId ?? "*";
  const counts = query.feedId
    ? sql`feed_user_stats s where s.feed_id = ${query.feedId} and`
    : sql`curator_stats s where`;
  return sql`candidates as materialized (
      (select ${REPUTATION} from curator_reputation r
        where r.scope = ${scope} and r.approved_count + r.rejected_count > 0
          and not exists (select 1 from linked l where l.handle = r.curator_username)
        order by r.score desc nulls last, r.approved_count desc nulls last, r.curator_username
        limit ${query.limit})
      union all
      (select ${REPUTATION} from curator_reputation r join linked l on l.handle = r.curator_username
        where r.scope = ${scope})
    ),
    scored as materialized (
      select (array_agg(c.curator_username order by ${BY_SCORE}))[1] as curator_username,
        array_agg(c.curator_username order by ${BY_SCORE}) as handles,
        sum(c.approved_count)::int as approved, sum(c.rejected_count)::int as rejected
      from candidates c left join linked l on l.handle = c.curator_username
      group by coalesce(l.entry, c.curator_username)
      having sum(c.approved_count + c.rejected_count) > 0
      order by curate_wilson_lower_bound(sum(c.approved_count)::int, sum(c.approved_count + c.rejected_count)::int) desc,
        sum(c.approved_count) desc, 1
      limit ${query.limit}
    ),
    ranked as materialized (
      select r.curator_username, t.curator_id, r.handles, coalesce(t.submission_count, 0) as submission_count,
        coalesce(t.approval_count, 0) as approval_count, coalesce(t.rejection_count, 0) as rejection_count
      from scored r cross join lateral (
        select max(s.curator_id) as curator_id, sum(s.submission_count)::int as submission_count,
          sum(s.approval_count)::int as approval_count, sum(s.rejection_count)::int as rejection_count
        from ${counts} s.curator_username = any(r.handles)
      ) t
    )`;
}

/** A curator's strongest feeds shown per row; a prolific curator may have posted to hundreds. */
export const TOP_FEEDS_PER_CURATOR = 10;

/**
 * Each ranked handle's submissions per feed (its top feeds; a merged account sums its handles' top feeds), and
 * those feeds' totals, in the same scope.
 */
function perFeed(query: LeaderboardQuery, since: string | null): { counts: SQL; totals: SQL } {
  const feedFilter = query.feedId ? sql` and feed_id = ${query.feedId}` : sql``;
  if (!since) {
    return {
      // Each handle's strongest feeds straight from the (curator, count) index, never all their feeds.
      counts: sql`select m.member, f.feed_id, f.submission_count as count from members m
        cross join lateral (
          select feed_id, submission_count from feed_user_stats s
          where s.curator_username = m.member and s.submission_count > 0${feedFilter}
          order by s.submission_count desc nulls last, s.feed_id limit ${TOP_FEEDS_PER_CURATOR}
        ) f`,
      totals: sql`select scope as feed_id, sum(count)::int as total from submission_counts
        where scope in (select feed_id from per_feed) group by scope`,
    };
  }
  const rollup = rollupOf(query.timeRange);
  if (rollup) {
    const scopeFilter = query.feedId ? sql` and s.scope = ${query.feedId}` : sql` and s.scope <> '*'`;
    return {
      counts: sql`select m.member, f.feed_id, f.count from members m
        cross join lateral (
          select s.scope as feed_id, s.submission_count as count from ${rollup.table} s
          where s.${rollup.period} = ${since}::date and s.curator_username = m.member
            and s.submission_count > 0${scopeFilter}
          order by s.submission_count desc, s.scope limit ${TOP_FEEDS_PER_CURATOR}
        ) f`,
      totals: sql`select scope as feed_id, submission_count as total from ${rollup.table}
        where ${rollup.period} = ${since}::date and curator_username = '*' and scope in (select feed_id from per_feed)`,
    };
  }
  return {
    counts: sql`select curator_username as member, feed_id, sum(submission_count)::int as count
      from curator_daily_stats
      where day >= ${since}::date and curator_username in (select member from members)${feedFilter}
      group by curator_username, feed_id having sum(submission_count) > 0`,
    totals: sql`select feed_id, sum(submission_count)::int as total from curator_daily_stats
      where day >= ${since}::date and feed_id in (select feed_id from per_feed) group by feed_id`,
  };
}

/**
 * Curators ordered by submissions then approvals; each feed link counts once in its own feed. A Curate account's
 * linked handles are one entry (decision 0019); the same name on two networks unlinked stays two.
 */
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
  const byScore = query.sort === "score";
  if (byScore && query.timeRange !== "all") {
    throw AppError.validation(
      "Ranking by score is all-time: use timeRange=all (a score over a short range would rest on a few decisions).",
      [{ path: "sort", message: "sort=score needs timeRange=all" }],
    );
  }
  const start = timeRangeStart(query.timeRange, now);
  const since = start ? start.toISOString().slice(0, 10) : null;
  const { counts, totals } = perFeed(normalized, since);
  const scope = normalized.feedId ?? "*";
  const order = byScore
    ? sql`score desc, approved desc, r.curator_username`
    : sql`r.submission_count desc, r.approval_count desc, r.curator_username`;
  const rows = await queryRows<RankedRow>(
    db,
    sql`with linked as materialized (${LINKED_CURATOR_KEYS}),
    ${byScore ? rankedByScore(normalized) : rankedByCounts(normalized, since)},
    members as (select curator_username as entry, unnest(handles) as member from ranked),
    member_feeds as materialized (${counts}),
    per_feed as materialized (
      select curator_username, feed_id, count from (
        select m.entry as curator_username, f.feed_id, sum(f.count)::int as count,
          row_number() over (partition by m.entry order by sum(f.count) desc, f.feed_id) as position
        from member_feeds f join members m using (member)
        group by m.entry, f.feed_id
      ) numbered where position <= ${TOP_FEEDS_PER_CURATOR}
    ),
    feed_totals as (${totals}),
    feed_rows as (
      select p.curator_username, json_agg(
          json_build_object('feedId', p.feed_id, 'count', p.count, 'totalInFeed', coalesce(t.total, p.count))
          order by p.count desc, p.feed_id) as feeds
      from per_feed p left join feed_totals t using (feed_id)
      group by p.curator_username
    ),
    -- Each entry's reputation in the same scope: a primary-key lookup per handle, whatever the planner thinks.
    entries as (
      select r.*, p.approved, p.rejected, p.retracted,
        curate_wilson_lower_bound(p.approved, p.approved + p.rejected) as score
      from ranked r cross join lateral (
        select coalesce(sum(c.approved_count), 0)::int as approved, coalesce(sum(c.rejected_count), 0)::int as rejected,
          coalesce(sum(c.retracted_count), 0)::int as retracted
        from curator_reputation c where c.scope = ${scope} and c.curator_username = any(r.handles)
      ) p
    )
    select (row_number() over (order by ${order}))::int as "rank",
      coalesce(r.curator_id, r.curator_username) as "curatorId", r.curator_username as "curatorUsername",
      to_json(r.handles) as "handles",
      r.submission_count::int as "submissionCount", r.approval_count::int as "approvalCount",
      r.rejection_count::int as "rejectionCount", coalesce(f.feeds, '[]'::json) as "feedSubmissions",
      u.near_account_id as "userId", u.username as "accountName", u.profile_image as "profileImage",
      r.approved, r.rejected, r.retracted, r.score as "reputationScore"
    from entries r left join feed_rows f using (curator_username)
      left join linked l on l.handle = r.curator_username
      left join users u on u.id = l.user_id
    order by ${order}`,
  );
  return rows.map(
    ({ accountName, profileImage, approved, rejected, retracted, reputationScore, ...entry }) => {
      const { platform, handle } = splitHandleKey(entry.curatorUsername);
      return {
        ...entry,
        displayName: accountName?.trim() || displayHandle(platform, handle),
        // Only an image this server holds: a third-party address would learn who looks at the leaderboard.
        avatarUrl: profileImage && isUploadReference(profileImage) ? profileImage : null,
        // Points are the submissions counted in this answer's scope (the feed's, when filtered).
        score: entry.submissionCount,
        reputation: {
          approvedCount: approved,
          rejectedCount: rejected,
          retractedCount: retracted,
          approvalRate: approvalRate(approved, approved + rejected),
          score: reputationScore,
        },
      };
    },
  );
}

type RankedRow = Omit<LeaderboardEntry, "displayName" | "avatarUrl" | "score" | "reputation"> & {
  accountName: string | null;
  profileImage: string | null;
  approved: number;
  rejected: number;
  retracted: number;
  reputationScore: number;
};
