import { SEARCH_TOTAL_CAP } from "@curate/core";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { queryRows } from "../db/sql.ts";

/**
 * Searches past the total cap (decision 0014): more than SEARCH_TOTAL_CAP posts match, so the list reports
 * "at least the cap" and pages by walking the date order; below it, every match is counted and ordered. Either way
 * the pages must be exactly what a plain substring filter over all rows gives, in the same order.
 */
let server: TestServer;

const MANY = SEARCH_TOTAL_CAP + 260;
const FEW_PENDING_EVERY = 7;

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "news" });
  await insertFeed(server.db, { id: "other" });
  // MANY posts say "haystack"; every 7th is pending (fewer than the cap), the rest approved. Every third post goes
  // to "news" too. 300 more posts never say it. Authors are "nemo0…", "zed0…"; curators "nell0…", "cy0…".
  await server.db.execute(sql`
    insert into submissions (tweet_id, user_id, username, content, url, curator_id, curator_username,
      curator_tweet_id, status, created_at, submitted_at, updated_at)
    select (5000000 + g)::text, 'u' || g, case when g % 2 = 0 then 'nemo' || g else 'zed' || g end,
      case when g <= ${MANY} then 'A HayStack of post ' || g else 'Nothing to see ' || g end,
      'https://x.com/a/status/' || g, 'c' || g, case when g % 5 = 0 then 'nell' || g else 'cy' || g end,
      '9' || g, 'pending',
      timestamptz '2026-01-01' + (g * 37 % 2000) * interval '1 minute',
      timestamptz '2026-01-01' + (g * 37 % 2000) * interval '1 minute',
      timestamptz '2026-01-01' + (g * 37 % 2000) * interval '1 minute'
    from generate_series(1, ${MANY + 300}) g`);
  await server.db.execute(sql`
    insert into submission_feeds (submission_id, feed_id, status, curator_username, submitted_at)
    select tweet_id, 'other', case when (tweet_id::bigint % ${FEW_PENDING_EVERY}) = 0 then 'pending' else 'approved' end,
      curator_username, submitted_at
    from submissions
    union all
    select tweet_id, 'news', 'pending', curator_username, submitted_at from submissions where tweet_id::bigint % 3 = 0`);
});

afterAll(() => server.close());

interface Page {
  items: { tweetId: string; status: string }[];
  pagination: {
    page: number;
    limit: number;
    hasNextPage: boolean;
    totalCount: number;
    totalCountCapped?: boolean;
  };
}

async function page(path: string): Promise<Page> {
  const { status, body } = await server.json(path);
  expect(status, path).toBe(200);
  return body.data;
}

/** The ids a plain filter over all rows gives, in the list's order (newest first unless `oldest`). */
async function expected(where: ReturnType<typeof sql>, oldest = false, feedId?: string): Promise<string[]> {
  const direction = sql.raw(oldest ? "asc" : "desc");
  const rows = await queryRows<{ id: string }>(
    server.db,
    feedId
      ? sql`select s.tweet_id as id from submissions s join submission_feeds sf on sf.submission_id = s.tweet_id
          where sf.feed_id = ${feedId} and ${where}
          order by sf.submitted_at ${direction}, sf.submission_id ${direction}`
      : sql`select s.tweet_id as id from submissions s where ${where}
          order by s.submitted_at ${direction}, s.tweet_id ${direction}`,
  );
  return rows.map((r) => r.id);
}

describe("searches past the total cap", () => {
  it("reports the cap as a lower bound and pages exactly as a filter over all rows", async () => {
    const all = await expected(sql`strpos(lower(s.content), 'haystack') > 0`);
    expect(all).toHaveLength(MANY);
    const first = await page("/api/submissions?q=haystack");
    expect(first.pagination).toEqual({
      page: 0,
      limit: 20,
      hasNextPage: true,
      totalCount: SEARCH_TOTAL_CAP,
      totalCountCapped: true,
    });
    expect(first.items.map((i) => i.tweetId)).toEqual(all.slice(0, 20));
    // Past the cap, too: the last page holds the last matches and says there is no next one.
    const last = await page(`/api/submissions?q=HAYSTACK&limit=100&page=${Math.floor((MANY - 1) / 100)}`);
    expect(last.items.map((i) => i.tweetId)).toEqual(all.slice(Math.floor((MANY - 1) / 100) * 100));
    expect(last.pagination.hasNextPage).toBe(false);
    const oldest = await page("/api/submissions?q=haystack&sortOrder=oldest&page=3&limit=50");
    expect(oldest.items.map((i) => i.tweetId)).toEqual(
      (await expected(sql`strpos(lower(s.content), 'haystack') > 0`, true)).slice(150, 200),
    );
  });

  it("counts exactly below the cap: a status or a feed narrows the matches", async () => {
    const pending = await expected(
      sql`strpos(lower(s.content), 'haystack') > 0 and sf.status = 'pending'`,
      false,
      "other",
    );
    expect(pending.length).toBeLessThan(SEARCH_TOTAL_CAP);
    const scoped = await page("/api/submissions/feed/other?q=haystack&status=pending&limit=100");
    expect(scoped.pagination.totalCount).toBe(pending.length);
    expect(scoped.pagination.totalCountCapped).toBeUndefined();
    expect(scoped.items.map((i) => i.tweetId)).toEqual(pending.slice(0, 100));
    const news = await expected(sql`strpos(lower(s.content), 'haystack') > 0`, false, "news");
    const inNews = await page("/api/submissions/feed/news?q=haystack&page=2");
    expect(inNews.pagination).toMatchObject({ totalCount: news.length, hasNextPage: true });
    expect(inNews.items.map((i) => i.tweetId)).toEqual(news.slice(40, 60));
    const none = await page("/api/submissions?q=needle-nowhere");
    expect(none.pagination).toEqual({ page: 0, limit: 20, hasNextPage: false, totalCount: 0 });
  });

  it("past the cap inside one feed, with its statuses", async () => {
    const approved = await expected(
      sql`strpos(lower(s.content), 'haystack') > 0 and sf.status = 'approved'`,
      false,
      "other",
    );
    expect(approved.length).toBeGreaterThan(SEARCH_TOTAL_CAP);
    const scoped = await page("/api/submissions/feed/other?q=haystack&status=approved&page=1");
    expect(scoped.pagination).toMatchObject({ totalCount: SEARCH_TOTAL_CAP, totalCountCapped: true });
    expect(scoped.items.map((i) => i.tweetId)).toEqual(approved.slice(20, 40));
    expect(scoped.items.every((i) => i.status === "approved")).toBe(true);
  });
});

describe("searches shorter than three characters", () => {
  it("match authors' and curators' handles that start with them, with or without the @", async () => {
    // "cy" starts four curators in five: past the cap, paged by walking the date order.
    const cy = await expected(sql`(s.username like 'cy%' or s.curator_username like 'cy%')`);
    expect(cy.length).toBeGreaterThan(SEARCH_TOTAL_CAP);
    const dense = await page("/api/submissions?q=CY&page=2");
    expect(dense.pagination).toMatchObject({ totalCount: SEARCH_TOTAL_CAP, totalCountCapped: true });
    expect(dense.items.map((i) => i.tweetId)).toEqual(cy.slice(40, 60));
    // "ne" starts authors "nemo…" and curators "nell…": below the cap, counted exactly; the @ is the app's.
    const ne = await expected(sql`(s.username like 'ne%' or s.curator_username like 'ne%')`);
    expect(ne.length).toBeLessThan(SEARCH_TOTAL_CAP);
    for (const q of ["ne", "%40Ne"]) {
      const found = await page(`/api/submissions?q=${q}&limit=100&page=1`);
      expect(found.pagination).toEqual({ page: 1, limit: 100, hasNextPage: true, totalCount: ne.length });
      expect(found.items.map((i) => i.tweetId)).toEqual(ne.slice(100, 200));
    }
    // "ay" is inside every "haystack" post, but starts no handle; "_" is a character, not a wildcard.
    expect((await page("/api/submissions?q=ay")).pagination.totalCount).toBe(0);
    expect((await page("/api/submissions?q=_")).pagination.totalCount).toBe(0);
  });

  it("bound a prefix exactly in byte order, beyond ASCII and at the last code point", async () => {
    const handles = ["éa1", "é", "ê2", "ée", "\u{10FFFF}x", "\u{10FFFF}", "\u{10FFFE}y"];
    await server.db.execute(sql`
      insert into submissions (tweet_id, user_id, username, content, curator_id, curator_username, status, created_at)
      select (8100000 + i)::text, 'u' || i, handle, 'A post by a rare handle', 'c' || i, 'zz' || i, 'pending', now()
      from unnest(array[${sql.join(
        handles.map((handle) => sql`${handle}`),
        sql`, `,
      )}]::text[]) with ordinality as h(handle, i)`);
    const usernames = async (q: string) =>
      (await server.json(`/api/submissions?q=${encodeURIComponent(q)}&limit=100`)).body.data.items
        .map((item: { username: string }) => item.username)
        .sort();
    expect(await usernames("é")).toEqual(["é", "éa1", "ée"].sort());
    expect(await usernames("@ê")).toEqual(["ê2"]);
    expect(await usernames("\u{10FFFF}")).toEqual(["\u{10FFFF}", "\u{10FFFF}x"].sort());
    expect(await usernames("\u{10FFFE}")).toEqual(["\u{10FFFE}y"]);
  });
});
