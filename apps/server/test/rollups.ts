import { sql } from "drizzle-orm";
import { queryRows } from "../src/db/sql.ts";
import type { TestServer } from "./harness.ts";

/** One roll-up row: a period (its first day), a curator ("*": a feed's total), a scope ("*": every feed). */
export interface RollupRow {
  period: string;
  curator: string;
  scope: string;
  n: number;
  approved: number;
  rejected: number;
}

type Period = "week" | "month";

const TABLES = { week: sql`curator_weekly_stats`, month: sql`curator_monthly_stats` } as const;

/**
 * What a roll-up should hold, counted straight from the links: per (period, curator, feed), (period, curator, "*")
 * and (period, "*", feed). The period is truncated in UTC, as the triggers do.
 */
export function rollupCounted(db: TestServer["db"], period: Period): Promise<RollupRow[]> {
  return queryRows<RollupRow>(
    db,
    sql`with links as (
        select to_char(date_trunc(${period}, submitted_at at time zone 'UTC'), 'YYYY-MM-DD') as period,
          curator_username, feed_id, status
        from submission_feeds where curator_username is not null
      )
      select period, curator, scope, n, approved, rejected from (
        select period, curator_username as curator, feed_id as scope, count(*)::int as n,
          (count(*) filter (where status = 'approved'))::int as approved,
          (count(*) filter (where status = 'rejected'))::int as rejected
        from links group by period, curator_username, feed_id
        union all
        select period, curator_username, '*', count(*)::int, (count(*) filter (where status = 'approved'))::int,
          (count(*) filter (where status = 'rejected'))::int
        from links group by period, curator_username
        union all
        select period, '*', feed_id, count(*)::int, (count(*) filter (where status = 'approved'))::int,
          (count(*) filter (where status = 'rejected'))::int
        from links group by period, feed_id
      ) all_rows order by period, curator, scope`,
  );
}

/** What the triggers kept in the period's roll-up (rows that count nothing left out). */
export function rollupKept(db: TestServer["db"], period: Period): Promise<RollupRow[]> {
  return queryRows<RollupRow>(
    db,
    sql`select to_char(${sql.raw(period)}, 'YYYY-MM-DD') as period, curator_username as curator, scope,
        submission_count as n, approval_count as approved, rejection_count as rejected
      from ${TABLES[period]}
      where submission_count <> 0 or approval_count <> 0 or rejection_count <> 0
      order by period, curator, scope`,
  );
}
