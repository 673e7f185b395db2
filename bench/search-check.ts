import { SEARCH_TOTAL_CAP } from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../apps/server/src/db/index.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { RARE_WORD } from "./load.ts";

interface ListBody {
  data: {
    items: { tweetId: string }[];
    pagination: { totalCount: number; totalCountCapped?: boolean };
  };
}

/** What the list should say for `where`: the first page's ids (newest first) and the total, capped as the API caps. */
async function direct(db: Database, where: SQL) {
  const [row] = await queryRows<{ n: number; ids: string[] | null }>(
    db,
    sql`select (select count(*)::int from submissions where ${where}) as n,
      (select array_agg(tweet_id order by submitted_at desc, tweet_id desc) from (
        select tweet_id, submitted_at from submissions where ${where}
        order by submitted_at desc, tweet_id desc limit 100) first_page) as ids`,
  );
  return { total: Math.min(row.n, SEARCH_TOTAL_CAP), capped: row.n > SEARCH_TOTAL_CAP, ids: row.ids ?? [] };
}

/**
 * A fast search is worthless if it is wrong: before measuring, the API's first page and total for a few terms
 * (including LIKE wildcards, which must match literally) are compared with a plain substring filter in SQL, and a
 * search shorter than three characters with a plain prefix filter over the handles (decision 0014).
 */
export async function checkSearch(baseUrl: string, db: Database): Promise<void> {
  const terms: [string, SQL][] = [RARE_WORD, "12%", "e_c", "snake_case", "no-such-word-anywhere"].map(
    (term) => [
      term,
      sql`(strpos(lower(content), lower(${term})) > 0 or strpos(lower(username), lower(${term})) > 0
      or strpos(lower(coalesce(curator_username, '')), lower(${term})) > 0)`,
    ],
  );
  for (const short of ["ze", "@au", "cu", "%"]) {
    const handle = short.replace(/^@+/, "");
    terms.push([
      short,
      sql`(starts_with(lower(username), lower(${handle})) or starts_with(lower(coalesce(curator_username, '')), lower(${handle})))`,
    ]);
  }
  for (const [term, where] of terms) {
    const want = await direct(db, where);
    const res = await fetch(`${baseUrl}/api/submissions?limit=100&q=${encodeURIComponent(term)}`);
    const { pagination, items } = ((await res.json()) as ListBody).data;
    if (pagination.totalCount !== want.total || Boolean(pagination.totalCountCapped) !== want.capped) {
      throw new Error(
        `search "${term}": API total ${pagination.totalCount}${pagination.totalCountCapped ? "+" : ""}, expected ${want.total}${want.capped ? "+" : ""}`,
      );
    }
    if (items.map((i) => i.tweetId).join() !== want.ids.join())
      throw new Error(`search "${term}": first page differs`);
    if (term === "12%" && pagination.totalCount === 0) {
      throw new Error('search "12%": the data set should hold a literal %');
    }
  }
}
