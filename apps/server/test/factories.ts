import type { SubmissionStatus } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/index.ts";
import { feeds, moderationHistory, submissionFeeds, submissions } from "../src/db/schema.ts";
import { queryRows } from "../src/db/sql.ts";

let sequence = 0;
const next = () => ++sequence;

type HandlesByPlatform = Record<string, string[]>;

export interface FeedSeed extends Partial<typeof feeds.$inferInsert> {
  /** `moderation.approvers` of the config, by platform (e.g. `{ twitter: ["amy"] }`). */
  approvers?: HandlesByPlatform;
  /** `moderation.blacklist` of the config, by platform. */
  blacklist?: HandlesByPlatform;
}

/** Inserts a feed; `approvers` and `blacklist` go into its config's moderation section. */
export async function insertFeed(db: Database, seed: FeedSeed = {}) {
  const { approvers, blacklist, ...overrides } = seed;
  const id = overrides.id ?? `feed${next()}`;
  const name = overrides.name ?? `Feed ${id}`;
  const moderation = approvers || blacklist ? { moderation: { approvers, blacklist } } : {};
  const row = {
    id,
    name,
    description: `About ${name}`,
    image: null,
    createdBy: "creator.near",
    admins: [],
    ...overrides,
    config: {
      id,
      name,
      description: `About ${name}`,
      outputs: { stream: { enabled: true } },
      ...overrides.config,
      ...moderation,
    },
  };
  await db.insert(feeds).values(row);
  return row;
}

export interface SubmissionSeed {
  tweetId?: string;
  content?: string;
  username?: string;
  curatorUsername?: string | null;
  curatorNotes?: string | null;
  submittedAt?: Date;
  feeds?: Array<{
    feedId: string;
    status?: SubmissionStatus;
    curatorUsername?: string;
    curatorNotes?: string | null;
  }>;
}

/** Inserts a post and its feed links; the database triggers derive its overall status and counters. */
export async function insertSubmission(db: Database, seed: SubmissionSeed = {}) {
  const n = next();
  const tweetId = seed.tweetId ?? String(1_800_000_000_000_000_000n + BigInt(n));
  const submittedAt = seed.submittedAt ?? new Date(Date.UTC(2026, 0, 1) + n * 60_000);
  const curatorUsername = seed.curatorUsername === undefined ? `curator${n}` : seed.curatorUsername;
  await db.insert(submissions).values({
    tweetId,
    userId: `u${n}`,
    username: seed.username ?? `author${n}`,
    content: seed.content ?? `Post number ${n} about things`,
    url: `https://x.com/${seed.username ?? `author${n}`}/status/${tweetId}`,
    curatorId: curatorUsername ? `c-${curatorUsername}` : null,
    curatorUsername,
    curatorNotes: seed.curatorNotes ?? null,
    curatorTweetId: `9${tweetId}`,
    createdAt: new Date(submittedAt.getTime() - 3_600_000),
    submittedAt,
  });
  for (const link of seed.feeds ?? []) {
    const linkCurator = link.curatorUsername ?? curatorUsername;
    await db.insert(submissionFeeds).values({
      submissionId: tweetId,
      feedId: link.feedId,
      status: link.status ?? "pending",
      curatorId: linkCurator ? `c-${linkCurator}` : null,
      curatorUsername: linkCurator,
      curatorNotes: link.curatorNotes === undefined ? (seed.curatorNotes ?? null) : link.curatorNotes,
      curatorTweetId: `9${tweetId}`,
      submittedAt,
    });
    if (link.status && link.status !== "pending") {
      await db.insert(moderationHistory).values({
        submissionId: tweetId,
        feedId: link.feedId,
        moderatorAccountId: "mod.near",
        moderatorAccountIdType: "near",
        source: "ui",
        action: link.status === "approved" ? "approve" : "reject",
        note: `${link.status} in ${link.feedId}`,
      });
    }
  }
  return { tweetId, submittedAt };
}

/**
 * Inserts `count` pending posts into one feed in two statements (a queue of thousands in a moment); ids are
 * `${prefix}-1` … `${prefix}-${count}`, the highest number the newest. Returns the ids, newest first (the
 * curation tab's order).
 */
export async function insertPendingPosts(db: Database, feedId: string, count: number, prefix = feedId) {
  await db.execute(sql`insert into submissions (tweet_id, user_id, username, content, url, curator_id,
      curator_username, curator_tweet_id, created_at, submitted_at)
    select ${prefix} || '-' || n, 'u' || n, 'author' || n, 'Queued post ' || n || ' of ' || ${prefix},
      'https://x.com/author' || n || '/status/' || n, 'c-curator', 'curator', '9' || n,
      timestamp '2026-01-01' + n * interval '1 second', timestamp '2026-01-01 01:00' + n * interval '1 second'
    from generate_series(1, ${count}) n`);
  await db.execute(sql`insert into submission_feeds (submission_id, feed_id, status, curator_id,
      curator_username, curator_tweet_id, submitted_at)
    select ${prefix} || '-' || n, ${feedId}, 'pending', 'c-curator', 'curator', '9' || n,
      timestamp '2026-01-01 01:00' + n * interval '1 second'
    from generate_series(1, ${count}) n`);
  return Array.from({ length: count }, (_, i) => `${prefix}-${count - i}`);
}

/** Row counts of what intake writes, to show a replay stored nothing twice. */
export async function intakeTableCounts(db: Database): Promise<Record<string, number>> {
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*) from submissions)::int as submissions,
      (select count(*) from submission_feeds)::int as links,
      (select count(*) from moderation_history)::int as history,
      (select count(*) from activities)::int as activities,
      (select count(*) from processing_jobs)::int as jobs,
      (select count(*) from moderation_log_entries)::int as log`,
  );
  return row;
}
