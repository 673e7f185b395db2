import { sql } from "drizzle-orm";
import type { Database } from "../apps/server/src/db/index.ts";
import { queryRows } from "../apps/server/src/db/sql.ts";
import { RARE_WORD } from "./load.ts";

/**
 * A fast search is worthless if it is wrong: before measuring, the API's totals for a few terms (including
 * LIKE wildcards, which must match literally) are compared with a plain substring count in SQL.
 */
export async function checkSearch(baseUrl: string, db: Database): Promise<void> {
  for (const term of [RARE_WORD, "%", "12%", "e_c", "snake_case", "no-such-word-anywhere"]) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from submissions
        where strpos(lower(content), lower(${term})) > 0 or strpos(lower(username), lower(${term})) > 0
          or strpos(lower(coalesce(curator_username, '')), lower(${term})) > 0`,
    );
    const res = await fetch(`${baseUrl}/api/submissions?limit=100&q=${encodeURIComponent(term)}`);
    const body = (await res.json()) as {
      data: { items: { content: string }[]; pagination: { totalCount: number } };
    };
    const total = body.data.pagination.totalCount;
    if (total !== row.n) throw new Error(`search "${term}": API total ${total}, expected ${row.n}`);
    if (term === "%" && total === 0) throw new Error('search "%": the data set should hold a literal %');
  }
}
