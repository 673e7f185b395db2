import { sql } from "drizzle-orm";
import type { Database } from "../src/db/index.ts";
import { queryRows } from "../src/db/sql.ts";

export interface CounterMismatch {
  counter: "total" | "day";
  scope: string;
  day: string | null;
  status: string;
  actual: number | null;
  kept: number | null;
}

/**
 * Where the trigger-kept counters (submission_counts, submission_day_counts) differ from counting the rows:
 * scope "*" counts submissions by overall status, a feed its links. A zero counter equals no rows.
 */
export function counterMismatches(db: Database): Promise<CounterMismatch[]> {
  return queryRows<CounterMismatch>(
    db,
    sql`with actual as (
        select '*' as scope, (submitted_at at time zone 'UTC')::date as day, status, count(*)::int as n
        from submissions group by 2, 3
        union all
        select feed_id, (submitted_at at time zone 'UTC')::date, status, count(*)::int
        from submission_feeds group by 1, 2, 3
      ),
      totals as (select scope, status, sum(n)::int as n from actual group by scope, status)
      select 'total' as counter, scope, null as day, status, a.n as actual, c.count::int as kept
      from totals a full join (select * from submission_counts where count <> 0) c using (scope, status)
      where a.n is distinct from c.count
      union all
      select 'day', scope, day::text, status, a.n, c.count::int
      from actual a full join (select * from submission_day_counts where count <> 0) c using (scope, day, status)
      where a.n is distinct from c.count`,
  );
}
