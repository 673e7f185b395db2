import {
  ANONYMOUS_VOTER,
  curatorFields,
  handleOnPlatform,
  isTextSearch,
  MAX_QUORUM_APPROVALS,
  moderatorFields,
  type Paged,
  PLATFORMS,
  SEARCH_TOTAL_CAP,
  type Submission,
  type SubmissionListQuery,
} from "@curate/core";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { containsPattern, isoUtc, queryRows, queryRowsPrepared } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { findFeed } from "../feeds/service.ts";

/** The approvals a link's feed requires (its quorum's k), as text; null without a quorum. */
const quorumOfLink = sql`(fq.config #>> '{moderation,quorum,approvals}')`;

/** Whether the link's feed keeps rejecters anonymous (`moderation.nameRejectersInLog: false`): tallies do too. */
const rejectersHidden = sql`coalesce(fq.config #>> '{moderation,nameRejectersInLog}' = 'false', false)`;

/**
 * Until when an approved link's approval can be taken back: its publishing job still held in the outbox by the
 * feed's undo window or a scheduled channel's slot, with nothing published yet (the job an undo cancels), else
 * null. Every approver who voted sees it, not only the one whose vote met the quorum and whose toast offered the
 * undo.
 */
const undoUntilJson = sql`case when sf2.status = 'approved' then (select ${isoUtc("pj.not_before")}
    from processing_jobs pj
    where pj.submission_id = sf2.submission_id and pj.feed_id = sf2.feed_id and pj.kind = 'approval'
      and pj.status = 'pending' and pj.queued_at is null and pj.not_before > now()
      and not exists (select 1 from processing_steps ps where ps.job_id = pj.id
        and ps.type = 'distribution' and ps.status = 'success')
    order by pj.not_before desc limit 1) end`;

/**
 * A link's tally in a feed that decides by a quorum (k > 1): the current round's votes, oldest first, k, and the
 * end of the undo window while it is open; null in every other feed, whose links read no votes at all (decision
 * 0033).
 */
const tallyJson = sql`case when ${quorumOfLink} ~ '^[0-9]+$' and ${quorumOfLink}::int > 1 then json_build_object(
    'votes', coalesce((select json_agg(json_build_object('voter', case when v.action = 'reject' and ${rejectersHidden}
        then ${ANONYMOUS_VOTER} else v.voter_label end, 'action', v.action) order by v.id)
      from moderation_votes v
      where v.submission_id = sf2.submission_id and v.feed_id = sf2.feed_id and v.withdrawn_at is null), '[]'::json),
    'required', least(${quorumOfLink}::int, ${sql.raw(String(MAX_QUORUM_APPROVALS))}),
    'undoUntil', ${undoUntilJson}
  ) end`;

/** The feeds a submission went to and its moderation history, built in SQL for a page of rows at once. */
const feedsJson = sql`coalesce((
  select json_agg(json_build_object(
    'submissionId', sf2.submission_id, 'feedId', sf2.feed_id, 'feedName', fq.name, 'status', sf2.status,
    'curatorId', sf2.curator_id, 'curatorUsername', sf2.curator_username, 'curatorNotes', sf2.curator_notes,
    'submittedAt', ${isoUtc("sf2.submitted_at")}, 'createdAt', ${isoUtc("sf2.created_at")},
    'updatedAt', ${isoUtc("sf2.updated_at")}, 'tally', ${tallyJson}
  ) order by sf2.submitted_at, sf2.feed_id)
  from submission_feeds sf2 left join feeds fq on fq.id = sf2.feed_id
  where sf2.submission_id = s.tweet_id
), '[]'::json)`;

/**
 * The moderation history, oldest first: each decision, and each undo as an entry of its own at the time it was
 * taken (an undo is stored on the approval it took back, so rows undone before undos were listed show theirs too).
 * Undos are only made in the app, by the signed-in account that asked.
 */
const historyJson = sql`coalesce((
  select json_agg(entry.record order by entry.at, entry.id, entry.undo)
  from (
    select mh.created_at as at, mh.id, false as undo, json_build_object(
      'id', mh.id, 'submissionId', mh.submission_id, 'feedId', mh.feed_id,
      'moderatorAccountId', mh.moderator_account_id, 'moderatorAccountIdType', mh.moderator_account_id_type,
      'source', mh.source, 'action', mh.action, 'note', mh.note, 'retraction', mh.retraction,
      'createdAt', ${isoUtc("mh.created_at")},
      'updatedAt', ${isoUtc("mh.updated_at")}
    ) as record
    from moderation_history mh where mh.submission_id = s.tweet_id
    union all
    select mh.undone_at, mh.id, true, json_build_object(
      'id', mh.id, 'submissionId', mh.submission_id, 'feedId', mh.feed_id,
      'moderatorAccountId', mh.undone_by, 'moderatorAccountIdType', 'near',
      'source', 'ui', 'action', 'undo', 'note', null, 'retraction', false, 'undoes', mh.id,
      'createdAt', ${isoUtc("mh.undone_at")},
      'updatedAt', ${isoUtc("mh.undone_at")}
    )
    from moderation_history mh
    where mh.submission_id = s.tweet_id and mh.undone_at is not null and mh.undone_by is not null
  ) entry
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
    'tweetId', s.tweet_id, 'platform', s.platform, 'userId', s.user_id, 'username', s.username,
    'authorDisplayName', s.author_display_name, 'authorProfileImage', s.author_profile_image,
    'content', s.content, 'url', s.url, 'media', s.media,
    'createdAt', ${isoUtc("s.created_at")}, 'updatedAt', ${isoUtc("s.updated_at")},
    'curatorId', ${curatorId}, 'curatorUsername', ${curatorUsername}, 'curatorNotes', ${curatorNotes},
    'curatorTweetId', ${curatorTweetId}, 'submittedAt', ${isoUtc(submittedAt)}, 'status', ${status},
    'feeds', ${feedsJson}, 'moderationHistory', ${historyJson}
  )`;
}

/** A submission as SQL builds it: the stored keys, before the people they name are spelled out. */
type StoredSubmission = Omit<
  Submission,
  "feeds" | "moderationHistory" | keyof ReturnType<typeof curatorFields>
> & {
  feeds: Array<Omit<Submission["feeds"][number], keyof ReturnType<typeof curatorFields>>>;
  moderationHistory: Array<
    Omit<Submission["moderationHistory"][number], keyof ReturnType<typeof moderatorFields>>
  >;
};

/**
 * Each curator and moderator as their network shows them (network, handle, profile), beside the stored keys the
 * API has always answered (`curatorUsername`, `moderatorAccountId`), which clients may still read.
 */
function withPeople(stored: StoredSubmission): Submission {
  return {
    ...stored,
    ...curatorFields(stored.curatorUsername),
    feeds: stored.feeds.map((feed) => ({ ...feed, ...curatorFields(feed.curatorUsername) })),
    moderationHistory: stored.moderationHistory.map((record) => ({
      ...record,
      ...moderatorFields(record.moderatorAccountId, record.moderatorAccountIdType),
    })),
  };
}

interface PageRow {
  total: number;
  capped: boolean;
  items: StoredSubmission[] | null;
}

/**
 * The list search over submissions aliased `s`: the text, the author or the curator. Handles are stored without
 * their "@", but people type them as the app shows them ("@quietalpha"). A search shorter than three characters
 * matches handles that start with it (a prefix index answers it; docs/decisions/0014). Bulk decisions' "Select all
 * N matching" uses the same condition, so it decides exactly what the list counted.
 *
 * `indexed: false` gives the same condition in a form no index answers and the planner takes for a common one
 * (function calls, not LIKE), for walking the date order when matches are many.
 */
export function submissionSearch(q: string, { indexed = true } = {}): SQL {
  const handle = q.replace(/^@+/, "") || q;
  if (!isTextSearch(q)) {
    if (!indexed) {
      return sql`(starts_with(lower(coalesce(s.username, '')), lower(${handle}))
        or ${sql.join(
          curatorKeyPrefixes(handle).map(
            (prefix) => sql`starts_with(lower(coalesce(s.curator_username, '')), lower(${prefix}))`,
          ),
          sql` or `,
        )})`;
    }
    return sql`(${handlePrefix(handle, "username")} or ${sql.join(
      curatorKeyPrefixes(handle).map((prefix) => handlePrefix(prefix, "curator_username")),
      sql` or `,
    )})`;
  }
  if (!indexed) {
    return sql`(strpos(lower(s.content), lower(${q})) > 0 or strpos(lower(coalesce(s.username, '')), lower(${handle})) > 0
      or strpos(lower(coalesce(${CURATOR_HANDLE}, '')), lower(${handle})) > 0)`;
  }
  const pattern = containsPattern(q);
  const handlePattern = containsPattern(handle);
  // The key's own match reads the trigram index; the handle's rechecks it.
  return sql`(s.content ilike ${pattern} escape '\\' or s.username ilike ${handlePattern} escape '\\'
      or (s.curator_username ilike ${handlePattern} escape '\\' and ${CURATOR_HANDLE} ilike ${handlePattern} escape '\\'))`;
}

/**
 * The curator's handle without the network its key starts with: a search for "telegram" is about the words people
 * see, and a card shows "@tg_cur", not the stored "telegram:tg_cur".
 */
const CURATOR_HANDLE = sql.raw(
  `regexp_replace(s.curator_username, '^(${PLATFORMS.filter((p) => p !== "twitter").join("|")}):', '')`,
);

/**
 * A curator is stored as `<platform>:<handle>` off X (decision 0019), but people search for the handle as the app
 * shows it: a prefix search over curators tries the bare handle and the handle on each other network.
 */
function curatorKeyPrefixes(handle: string): string[] {
  return [handle, ...PLATFORMS.filter((p) => p !== "twitter").map((p) => handleOnPlatform(p, handle))];
}

/** A handle lower-cased in byte order: the prefix indexes' key, so a prefix is a range scan in their order. */
function handleKey(column: "username" | "curator_username"): SQL {
  return sql.raw(`lower(s.${column}) collate "C"`);
}

/** A handle column of `s` starting with `handle`, case-insensitively, from the prefix index. */
function handlePrefix(handle: string, column: "username" | "curator_username"): SQL {
  const prefix = handle.toLowerCase();
  const above = nextPrefix(prefix);
  // A range with bound values rather than LIKE: a prepared statement's generic plan can use it as an index range,
  // and in byte order it holds exactly the keys that start with the prefix.
  return above === null
    ? sql`${handleKey(column)} >= ${prefix}`
    : sql`(${handleKey(column)} >= ${prefix} and ${handleKey(column)} < ${above})`;
}

/**
 * The least string above every string starting with `prefix` in byte order (UTF-8 orders as code points): the
 * prefix with its last code point raised by one. Null when no string is above (only the highest code points).
 */
function nextPrefix(prefix: string): string | null {
  const points = Array.from(prefix, (ch) => ch.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = (points.pop() ?? 0) + 1;
    if (last <= 0x10ffff) {
      // Surrogates are not characters PostgreSQL stores; the next one is U+E000.
      points.push(last >= 0xd800 && last <= 0xdfff ? 0xe000 : last);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}

/**
 * From this many rows skipped on, an unsearched page starts from the day counters (decision 0020): OFFSET over an
 * index-only scan costs about 0.1 µs a row, the day counters a fraction of a millisecond whatever the depth.
 */
const DEEP_PAGE_OFFSET = 2_000;

/**
 * One round trip per page. The page's ids are found first from the narrowest source (the feed links, the
 * search matches or all submissions) in index order, and JSON is built only for those rows: building it in
 * the paged select would also build it for every row OFFSET skips, which made deep pages cost O(offset).
 * limit + 1 rows tell whether a next page exists; the total comes from the trigger-kept counters unless a
 * search narrows the set.
 *
 * A search reads at most SEARCH_TOTAL_CAP + 1 matches from the search indexes. Up to the cap, those are all of
 * them: they are counted and ordered, and a rare or absent term never walks the date index. Beyond it, matches are
 * dense enough that walking the date index and testing each row finds a page within a few thousand rows, and the
 * total is reported as "at least the cap" (docs/decisions/0014).
 */
async function pageOfSubmissions(
  db: Database,
  query: SubmissionListQuery,
  feedId: string | null,
): Promise<Paged<Submission>> {
  const { limit, status, sortOrder, q, platform } = query;
  const skipped = query.offset ?? (query.page ?? 0) * limit;
  const scoped = feedId !== null;
  const textSearch = q !== undefined && q !== "" && isTextSearch(q);
  const direction = sortOrder === "oldest" ? sql`asc` : sql`desc`;
  const order = sql`order by c.submitted_at ${direction}, c.tweet_id ${direction}`;
  const window = sql`limit ${limit + 1} offset ${skipped}`;
  const link = scoped
    ? sql`join submission_feeds sf on sf.submission_id = p.tweet_id and sf.feed_id = ${feedId}`
    : sql``;
  const items = sql`(select json_agg(${itemColumns(scoped)} order by p.submitted_at ${direction}, p.tweet_id ${direction})
    from page_ids p join submissions s on s.tweet_id = p.tweet_id ${link})`;

  let statement: SQL;
  if (q || platform) {
    const statusFilter = status === "all" ? sql`` : sql` and c.status = ${status}`;
    const onPlatform = platform ? sql` and s.platform = ${platform}` : sql``;
    // Candidate rows as (tweet_id, submitted_at, status): the status and date are the feed link's when scoped.
    const candidates = (search: SQL, orderedBy?: SQL) => {
      const matches = sql`${search}${onPlatform}`;
      const source = scoped
        ? sql`(select sf.submission_id as tweet_id, sf.submitted_at, sf.status${orderedBy ? sql`, ${orderedBy} as key` : sql``}
            from submission_feeds sf join submissions s on s.tweet_id = sf.submission_id
            where sf.feed_id = ${feedId} and ${matches}) c`
        : sql`(select s.tweet_id, s.submitted_at, s.status${orderedBy ? sql`, ${orderedBy} as key` : sql``}
            from submissions s where ${matches}) c`;
      return sql`${source} where true${statusFilter}`;
    };
    const cap = SEARCH_TOTAL_CAP + 1;
    const handle = q ? q.replace(/^@+/, "") || q : "";
    // Up to cap + 1 matches from the indexes. A handle prefix walks each handle's index in its order (so the
    // planner never trades it for a scan it expects to stop early); text goes through the trigram indexes; a
    // network alone, through the platform's date index.
    const hits = !q
      ? sql`select c.tweet_id, c.submitted_at from ${candidates(sql`true`)} limit ${cap}`
      : textSearch
        ? sql`select c.tweet_id, c.submitted_at from text_matches c limit ${cap}`
        : sql`(select c.tweet_id, c.submitted_at from ${candidates(handlePrefix(handle, "username"), handleKey("username"))}
            order by c.key limit ${cap})
          ${sql.join(
            curatorKeyPrefixes(handle).map(
              (prefix) => sql`union
          (select c.tweet_id, c.submitted_at from ${candidates(handlePrefix(prefix, "curator_username"), handleKey("curator_username"))}
            order by c.key limit ${cap})`,
            ),
            sql` `,
          )}
          limit ${cap}`;
    // A text search's matches are planned as if every one were read, and only their first cap + 1 are. Planned
    // under the LIMIT instead, a term the statistics put at 1.5% of posts was read by a table scan that stops at
    // its 1,001st match: about 100,000 rows of ILIKE, 170 ms at 1M, where the trigram indexes take 20 ms. Planned
    // for every row, the table scan wins only for terms in a large share of posts, where it does stop early
    // (docs/decisions/0021).
    const textMatches = textSearch
      ? sql`text_matches as materialized (select c.tweet_id, c.submitted_at from ${candidates(submissionSearch(q))}),`
      : sql``;
    statement = sql`with ${textMatches} hits as materialized (${hits}),
      dense as materialized (select count(*) > ${SEARCH_TOTAL_CAP} as capped, least(count(*), ${SEARCH_TOTAL_CAP})::int as n
        from hits),
      page_ids as materialized (
        (select c.tweet_id, c.submitted_at from hits c where not (select capped from dense) ${order} ${window})
        union all
        (select c.tweet_id, c.submitted_at from ${candidates(q ? submissionSearch(q, { indexed: false }) : sql`true`)}
          and (select capped from dense) ${order} ${window})
      )
      select (select n from dense) as total, (select capped from dense) as capped, ${items} as items`;
  } else {
    const candidates = scoped
      ? sql`(select submission_id as tweet_id, submitted_at, status from submission_feeds where feed_id = ${feedId})`
      : sql`(select tweet_id, submitted_at, status from submissions)`;
    const scope = scoped ? feedId : "*";
    const statusFilter = status === "all" ? sql`` : sql` and status = ${status}`;
    const total = sql`(select coalesce(sum(count), 0) from submission_counts where scope = ${scope}${statusFilter})::int`;
    if (skipped < DEEP_PAGE_OFFSET) {
      const where = status === "all" ? sql`` : sql`where c.status = ${status}`;
      statement = sql`with page_ids as materialized (
          select c.tweet_id, c.submitted_at from ${candidates} c ${where} ${order} ${window}
        )
        select ${total} as total, false as capped, ${items} as items`;
    } else {
      // The UTC day the page starts in, from the day counters in list order, and how many rows come before it;
      // the page is then the rest of the offset within that day. No row: the page is past the end.
      const newest = sortOrder !== "oldest";
      const dayOrder = newest ? sql`desc` : sql`asc`;
      const from = newest
        ? sql`c.submitted_at < (select (day + 1)::timestamp at time zone 'UTC' from start_day)`
        : sql`c.submitted_at >= (select day::timestamp at time zone 'UTC' from start_day)`;
      const statusWhere = status === "all" ? sql`` : sql` and c.status = ${status}`;
      statement = sql`with start_day as materialized (
          select day, through - n as before from (
            select day, n, sum(n) over (order by day ${dayOrder} rows unbounded preceding) as through
            from (select day, sum(count) as n from submission_day_counts where scope = ${scope}${statusFilter}
              group by day order by day ${dayOrder}) days
          ) running
          where through > ${skipped} limit 1
        ),
        page_ids as materialized (
          select c.tweet_id, c.submitted_at from ${candidates} c where ${from}${statusWhere}
          ${order} limit ${limit + 1} offset (select ${skipped} - before from start_day)
        )
        select ${total} as total, false as capped, ${items} as items`;
    }
  }

  // A text search's plan depends on its pattern (how many rows its trigrams select); a list, a network or a handle
  // prefix (an index range whatever its bounds) is planned once per connection and prepared.
  const [row] = await (textSearch
    ? queryRows<PageRow>(db, statement)
    : queryRowsPrepared<PageRow>(db, statement));
  const rows = row?.items ?? [];
  const hasNextPage = rows.length > limit;
  return {
    items: (hasNextPage ? rows.slice(0, limit) : rows).map(withPeople),
    pagination: {
      page: Math.floor(skipped / limit),
      limit,
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      hasNextPage,
      totalCount: Number(row?.total ?? 0),
      ...(row?.capped ? { totalCountCapped: true } : {}),
    },
  };
}

export function listSubmissions(db: Database, query: SubmissionListQuery) {
  return pageOfSubmissions(db, query, null);
}

export async function listFeedSubmissions(db: Database, feedId: string, query: SubmissionListQuery) {
  // Feed ids are stored lower-case (findFeed matches the same way). Only an empty page asks whether the feed
  // exists, so a feed's list is one round trip.
  const page = await pageOfSubmissions(db, query, feedId.toLowerCase());
  if (page.items.length === 0 && !(await findFeed(db, feedId))) {
    throw AppError.notFound(`Feed "${feedId}" not found.`);
  }
  return page;
}

export async function getSubmission(db: Database, tweetId: string): Promise<Submission> {
  const [row] = await queryRows<{ item: StoredSubmission }>(
    db,
    sql`select ${itemColumns(false)} as item from submissions s where s.tweet_id = ${tweetId}`,
  );
  if (!row) throw AppError.notFound(`Submission "${tweetId}" not found.`);
  return withPeople(row.item);
}
