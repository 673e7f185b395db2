import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterMismatches } from "../../test/counters.ts";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { queryRows } from "../db/sql.ts";

/**
 * Deep pages start from the day counters (decision 0020): the day a page starts in is found by summing per-day
 * counts, then the page is the rest of the offset within that day. Every page must be exactly what OFFSET over all
 * rows gives, across day boundaries (rows at midnight UTC, ties on the same instant), for every status and order,
 * in a feed and overall, and after writes that move rows between days and statuses.
 */
let server: TestServer;

const POSTS = 4_000;

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "news" });
  await insertFeed(server.db, { id: "gone" });
  // Posts 17 minutes apart over about seven weeks, every 50th exactly at a UTC midnight and every 9th sharing its
  // instant with the one before; statuses cycle. Two thirds go to "news", every 5th to "gone".
  await server.db.execute(sql`
    insert into submissions (tweet_id, user_id, username, content, url, curator_id, curator_username,
      curator_tweet_id, status, created_at, submitted_at, updated_at)
    select (7000000 + g)::text, 'u' || g, 'author' || g, 'Post ' || g, 'https://x.com/a/status/' || g, 'c' || g,
      'curator' || (g % 40), '8' || g, 'pending', at, at, at
    from (
      select g, case
        when g % 50 = 0 then date_trunc('day', timestamptz '2026-03-01' + g * interval '17 minutes', 'UTC')
        when g % 9 = 0 then timestamptz '2026-03-01' + (g - 1) * interval '17 minutes'
        else timestamptz '2026-03-01' + g * interval '17 minutes' end as at
      from generate_series(1, ${POSTS}) g
    ) posts`);
  await server.db.execute(sql`
    insert into submission_feeds (submission_id, feed_id, status, curator_username, submitted_at)
    select tweet_id, 'news', (array['pending', 'approved', 'rejected'])[1 + (tweet_id::bigint / 3) % 3],
      curator_username, submitted_at
    from submissions where tweet_id::bigint % 3 <> 0
    union all
    select tweet_id, 'gone', 'approved', curator_username, submitted_at + interval '3 hours'
    from submissions where tweet_id::bigint % 5 = 0`);
});

afterAll(() => server.close());

interface Page {
  items: { tweetId: string }[];
  pagination: { hasNextPage: boolean; totalCount: number };
}

async function page(path: string): Promise<Page> {
  const { status, body } = await server.json(path);
  expect(status, path).toBe(200);
  return body.data;
}

/** Every id of the list in its order, from a plain filter over all rows. */
async function allIds(options: { feedId?: string; status: string; oldest: boolean }): Promise<string[]> {
  const direction = sql.raw(options.oldest ? "asc" : "desc");
  const rows = await queryRows<{ id: string }>(
    server.db,
    options.feedId
      ? sql`select submission_id as id from submission_feeds
          where feed_id = ${options.feedId} and (${options.status} = 'all' or status = ${options.status})
          order by submitted_at ${direction}, submission_id ${direction}`
      : sql`select tweet_id as id from submissions where (${options.status} = 'all' or status = ${options.status})
          order by submitted_at ${direction}, tweet_id ${direction}`,
  );
  return rows.map((r) => r.id);
}

async function expectPagesLikeOffset(feedId?: string) {
  const base = feedId ? `/api/submissions/feed/${feedId}` : "/api/submissions";
  for (const status of ["all", "approved", "pending", "rejected"]) {
    for (const oldest of [false, true]) {
      const ids = await allIds({ feedId, status, oldest });
      // Pages from the deep-page threshold (2,000 rows skipped) to past the end, with limits that cut days unevenly.
      for (const [pageNumber, limit] of [
        [20, 100],
        [41, 50],
        [73, 37],
        [Math.floor(ids.length / 100), 100],
        [Math.max(0, Math.floor((ids.length - 1) / 7)), 7],
        [Math.ceil(ids.length / 100) + 1, 100],
      ] as const) {
        const query = `status=${status}&sortOrder=${oldest ? "oldest" : "newest"}&page=${pageNumber}&limit=${limit}`;
        const got = await page(`${base}?${query}`);
        const want = ids.slice(pageNumber * limit, pageNumber * limit + limit);
        expect(
          got.items.map((item) => item.tweetId),
          `${base}?${query}`,
        ).toEqual(want);
        expect(got.pagination.hasNextPage, `${base}?${query}`).toBe(ids.length > (pageNumber + 1) * limit);
        expect(got.pagination.totalCount, `${base}?${query}`).toBe(ids.length);
      }
    }
  }
}

describe("deep pages", () => {
  it("are exactly OFFSET's pages, overall and in a feed, for every status and order", async () => {
    expect(await counterMismatches(server.db)).toEqual([]);
    await expectPagesLikeOffset();
    await expectPagesLikeOffset("news");
  });

  it("stay exact after decisions, moved dates, deleted links and a deleted feed", async () => {
    await server.db.execute(sql`
      update submission_feeds set status = 'approved' where feed_id = 'news' and submission_id::bigint % 11 = 0`);
    await server.db.execute(sql`
      update submission_feeds set submitted_at = submitted_at - interval '3 days'
      where feed_id = 'news' and submission_id::bigint % 13 = 0`);
    await server.db.execute(sql`
      update submissions set submitted_at = submitted_at + interval '2 days' where tweet_id::bigint % 17 = 0`);
    await server.db.execute(
      sql`delete from submission_feeds where feed_id = 'news' and submission_id::bigint % 19 = 0`,
    );
    await server.db.execute(sql`delete from submissions where tweet_id::bigint % 23 = 0`);
    await server.db.execute(sql`delete from feeds where id = 'gone'`);

    expect(await counterMismatches(server.db)).toEqual([]);
    const [left] = await queryRows<{ n: number }>(
      server.db,
      sql`select count(*)::int as n from submission_day_counts where scope = 'gone'`,
    );
    expect(left?.n).toBe(0);
    await expectPagesLikeOffset();
    await expectPagesLikeOffset("news");
  });

  it("rebuilds the day counters from the rows", async () => {
    await server.db.execute(sql`update submission_day_counts set count = count + 5`);
    await server.db.execute(sql`select curate_rebuild_submission_counts()`);
    expect(await counterMismatches(server.db)).toEqual([]);
  });
});
