import type { Paged, Submission, SubmissionListQuery } from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { containsPattern, isoUtc, queryRows } from "../db/sql.ts";
import { findFeed } from "../feeds/service.ts";
import { AppError } from "../http/errors.ts";

/** The feeds a submission went to and its moderation history, built in SQL for a page of rows at once. */
const feedsJson = sql`coalesce((
  select json_agg(json_build_object(
    'feedId', sf2.feed_id, 'feedName', f2.name, 'status', sf2.status,
    'curatorId', sf2.curator_id, 'curatorUsername', sf2.curator_username, 'curatorNotes', sf2.curator_notes,
    'submittedAt', ${isoUtc("sf2.submitted_at")}
  ) order by sf2.submitted_at, sf2.feed_id)
  from submission_feeds sf2 left join feeds f2 on f2.id = sf2.feed_id
  where sf2.submission_id = s.tweet_id
), '[]'::json)`;

const historyJson = sql`coalesce((
  select json_agg(json_build_object(
    'id', mh.id, 'submissionId', mh.submission_id, 'feedId', mh.feed_id,
    'moderatorAccountId', mh.moderator_account_id, 'moderatorAccountIdType', mh.moderator_account_id_type,
    'source', mh.source, 'action', mh.action, 'note', mh.note, 'createdAt', ${isoUtc("mh.created_at")}
  ) order by mh.created_at, mh.id)
  from moderation_history mh where mh.submission_id = s.tweet_id
), '[]'::json)`;

/** Columns of one list item; `link` is the feed link (feed lists) or null (all submissions). */
function itemColumns(scoped: boolean): SQL {
  const status = scoped ? sql`sf.status` : sql`s.status`;
  const curatorId = scoped ? sql`coalesce(sf.curator_id, s.curator_id)` : sql`s.curator_id`;
  const curatorUsername = scoped
    ? sql`coalesce(sf.curator_username, s.curator_username)`
    : sql`s.curator_username`;
  const curatorNotes = scoped ? sql`sf.curator_notes` : sql`s.curator_notes`;
  const curatorTweetId = scoped
    ? sql`coalesce(sf.curator_tweet_id, s.curator_tweet_id)`
    : sql`s.curator_tweet_id`;
  const submittedAt = scoped ? sql`sf.submitted_at` : sql`s.submitted_at`;
  return sql`json_build_object(
    'tweetId', s.tweet_id, 'userId', s.user_id, 'username', s.username,
    'authorProfileImage', s.author_profile_image, 'content', s.content,
    'createdAt', ${isoUtc("s.created_at")}, 'updatedAt', ${isoUtc("s.updated_at")},
    'curatorId', ${curatorId}, 'curatorUsername', ${curatorUsername}, 'curatorNotes', ${curatorNotes},
    'curatorTweetId', ${curatorTweetId}, 'submittedAt', ${isoUtc(submittedAt)}, 'status', ${status},
    'feeds', ${feedsJson}, 'moderationHistory', ${historyJson}
  )`;
}

interface PageRow {
  total: number;
  items: Submission[] | null;
}

/**
 * One round trip per page: matching rows are paged in SQL (limit + 1 tells whether a next page exists),
 * and the total comes from the trigger-kept counters unless a search narrows the set.
 */
async function pageOfSubmissions(
  db: Database,
  query: SubmissionListQuery,
  feedId: string | null,
): Promise<Paged<Submission>> {
  const { page, limit, status, sortOrder, q } = query;
  const scoped = feedId !== null;
  const direction = sortOrder === "oldest" ? sql`asc` : sql`desc`;
  const statusColumn = scoped ? sql`sf.status` : sql`s.status`;
  const sortColumn = scoped ? sql`sf.submitted_at` : sql`s.submitted_at`;
  const from = scoped
    ? sql`submission_feeds sf join submissions s on s.tweet_id = sf.submission_id`
    : sql`submissions s`;

  const filters: SQL[] = [];
  if (scoped) filters.push(sql`sf.feed_id = ${feedId}`);
  if (status !== "all") filters.push(sql`${statusColumn} = ${status}`);

  let matched = sql``;
  let total: SQL;
  if (q) {
    // Matching ids come first from the trigram indexes; ordering then touches only those rows, so a rare
    // or absent term never walks the whole date index.
    const pattern = containsPattern(q);
    matched = sql`matched as materialized (
      select tweet_id from submissions
      where content ilike ${pattern} escape '\\' or username ilike ${pattern} escape '\\'
         or curator_username ilike ${pattern} escape '\\'
    ),`;
    filters.push(sql`s.tweet_id in (select tweet_id from matched)`);
    total = sql`(select count(*) from ${from} where ${sql.join(filters, sql` and `)})::int`;
  } else {
    const scope = scoped ? feedId : "*";
    const statusFilter = status === "all" ? sql`` : sql` and status = ${status}`;
    total = sql`(select coalesce(sum(count), 0) from submission_counts where scope = ${scope}${statusFilter})::int`;
  }
  const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;

  const [row] = await queryRows<PageRow>(
    db,
    sql`with ${matched} page as (
      select ${itemColumns(scoped)} as item
      from ${from} ${where}
      order by ${sortColumn} ${direction}, s.tweet_id ${direction}
      limit ${limit + 1} offset ${page * limit}
    )
    select ${total} as total, (select json_agg(item) from page) as items`,
  );
  const items = row?.items ?? [];
  const hasNextPage = items.length > limit;
  return {
    items: hasNextPage ? items.slice(0, limit) : items,
    pagination: { page, limit, hasNextPage, totalCount: Number(row?.total ?? 0) },
  };
}

export function listSubmissions(db: Database, query: SubmissionListQuery) {
  return pageOfSubmissions(db, query, null);
}

export async function listFeedSubmissions(db: Database, feedId: string, query: SubmissionListQuery) {
  const feed = await findFeed(db, feedId);
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
  return pageOfSubmissions(db, query, feed.id);
}

export async function getSubmission(db: Database, tweetId: string): Promise<Submission> {
  const [row] = await queryRows<{ item: Submission }>(
    db,
    sql`select ${itemColumns(false)} as item from submissions s where s.tweet_id = ${tweetId}`,
  );
  if (!row) throw AppError.notFound(`Submission "${tweetId}" not found.`);
  return row.item;
}
