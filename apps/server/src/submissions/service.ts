import type { Paged, Submission, SubmissionListQuery } from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { containsPattern, isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { findFeed } from "../feeds/service.ts";

/** The feeds a submission went to and its moderation history, built in SQL for a page of rows at once. */
const feedsJson = sql`coalesce((
  select json_agg(json_build_object(
    'feedId', sf2.feed_id, 'feedName', (select f2.name from feeds f2 where f2.id = sf2.feed_id), 'status', sf2.status,
    'curatorId', sf2.curator_id, 'curatorUsername', sf2.curator_username, 'curatorNotes', sf2.curator_notes,
    'submittedAt', ${isoUtc("sf2.submitted_at")}
  ) order by sf2.submitted_at, sf2.feed_id)
  from submission_feeds sf2
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
 * One round trip per page. The page's ids are found first from the narrowest source (the feed links, the
 * search matches or all submissions) in index order, and JSON is built only for those rows: building it in
 * the paged select would also build it for every row OFFSET skips, which made deep pages cost O(offset).
 * limit + 1 rows tell whether a next page exists; the total comes from the trigger-kept counters unless a
 * search narrows the set.
 */
async function pageOfSubmissions(
  db: Database,
  query: SubmissionListQuery,
  feedId: string | null,
): Promise<Paged<Submission>> {
  const { page, limit, status, sortOrder, q } = query;
  const scoped = feedId !== null;
  const direction = sortOrder === "oldest" ? sql`asc` : sql`desc`;

  // Candidate rows as (tweet_id, submitted_at, status): the status and date are the feed link's when scoped.
  let matched = sql``;
  let candidates: SQL;
  if (q) {
    // Matching rows come first from the trigram indexes, carrying their sort key and status, so ordering and
    // counting touch only those rows and never walk the date index for a rare or absent term.
    const pattern = containsPattern(q);
    const matches = sql`(s.content ilike ${pattern} escape '\\' or s.username ilike ${pattern} escape '\\'
      or s.curator_username ilike ${pattern} escape '\\')`;
    matched = scoped
      ? sql`matched as materialized (
          select sf.submission_id as tweet_id, sf.submitted_at, sf.status
          from submissions s join submission_feeds sf on sf.submission_id = s.tweet_id and sf.feed_id = ${feedId}
          where ${matches}
        ),`
      : sql`matched as materialized (select s.tweet_id, s.submitted_at, s.status from submissions s where ${matches}),`;
    candidates = sql`matched`;
  } else {
    candidates = scoped
      ? sql`(select submission_id as tweet_id, submitted_at, status from submission_feeds where feed_id = ${feedId})`
      : sql`(select tweet_id, submitted_at, status from submissions)`;
  }
  const where = status === "all" ? sql`` : sql`where c.status = ${status}`;

  let total: SQL;
  if (q) {
    total = sql`(select count(*) from ${candidates} c ${where})::int`;
  } else {
    const scope = scoped ? feedId : "*";
    const statusFilter = status === "all" ? sql`` : sql` and status = ${status}`;
    total = sql`(select coalesce(sum(count), 0) from submission_counts where scope = ${scope}${statusFilter})::int`;
  }
  const link = scoped
    ? sql`join submission_feeds sf on sf.submission_id = p.tweet_id and sf.feed_id = ${feedId}`
    : sql``;

  const [row] = await queryRows<PageRow>(
    db,
    sql`with ${matched} page_ids as materialized (
      select c.tweet_id, c.submitted_at from ${candidates} c ${where}
      order by c.submitted_at ${direction}, c.tweet_id ${direction}
      limit ${limit + 1} offset ${page * limit}
    )
    select ${total} as total,
      (select json_agg(${itemColumns(scoped)} order by p.submitted_at ${direction}, p.tweet_id ${direction})
        from page_ids p join submissions s on s.tweet_id = p.tweet_id ${link}) as items`,
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
