import {
  ACTIVITY_TYPES,
  type ApiScope,
  LOG_ACTIONS,
  LOG_VIAS,
  PLATFORMS,
  PLUGIN_NOTICE_KINDS,
  PROCESSING_JOB_KINDS,
  PROCESSING_JOB_STATUSES,
  PROCESSING_STEP_STAGES,
  PROCESSING_STEP_STATUSES,
  PROCESSING_STEP_TYPES,
  PUBLICATION_STATUSES,
} from "@curate/core";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** Where a stored config holds what looks like a raw credential, and what kind (quarantine.ts). */
export interface SecretFinding {
  path: string;
  message: string;
}

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const feeds = pgTable(
  "feeds",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    image: text("image"),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by"),
    admins: jsonb("admins").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** What the secret scan found in the stored config (paths and kinds, never values); null when it is clean. */
    secretFindings: jsonb("secret_findings").$type<SecretFinding[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("feeds_created_by_idx").on(sql`lower(${t.createdBy})`)],
);

/** The original post. Curator columns hold the first curator; per-feed curation lives in submission_feeds. */
export const submissions = pgTable(
  "submissions",
  {
    /** `submissionKey(platform, post id)`: X's bare id, `<platform>:<id>` for other networks (decision 0019). */
    tweetId: text("tweet_id").primaryKey(),
    platform: text("platform", { enum: PLATFORMS }).notNull().default("twitter"),
    userId: text("user_id").notNull(),
    username: text("username").notNull(),
    authorDisplayName: text("author_display_name"),
    authorProfileImage: text("author_profile_image"),
    content: text("content").notNull(),
    /** The post's own address, as its source adapter built it. */
    url: text("url"),
    /** Images and video of the post: [{ url, type, alt? }]. */
    media: jsonb("media").$type<Array<{ url: string; type: string; alt?: string | null }>>(),
    curatorId: text("curator_id"),
    curatorUsername: text("curator_username"),
    curatorNotes: text("curator_notes"),
    curatorTweetId: text("curator_tweet_id"),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("submissions_submitted_at_idx").on(t.submittedAt, t.tweetId),
    index("submissions_status_submitted_at_idx").on(t.status, t.submittedAt, t.tweetId),
    index("submissions_curator_username_idx").on(t.curatorUsername),
    index("submissions_platform_submitted_at_idx").on(t.platform, t.submittedAt, t.tweetId),
    // An approver may name a post by its address instead of replying to it (from another network, say).
    index("submissions_url_idx").on(t.url),
    index("submissions_content_trgm_idx").using("gin", sql`${t.content} gin_trgm_ops`),
    index("submissions_username_trgm_idx").using("gin", sql`${t.username} gin_trgm_ops`),
    index("submissions_curator_username_trgm_idx").using("gin", sql`${t.curatorUsername} gin_trgm_ops`),
    // Searches shorter than three characters match handles by prefix (docs/decisions/0014) through two indexes on
    // `lower(handle) collate "C"` that also carry the columns a prefix search reads, so it never visits the table:
    // drizzle cannot declare INCLUDE, so migration 0015 creates them.
  ],
);

export const submissionFeeds = pgTable(
  "submission_feeds",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.tweetId, { onDelete: "cascade" }),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    curatorId: text("curator_id"),
    curatorUsername: text("curator_username"),
    curatorNotes: text("curator_notes"),
    curatorTweetId: text("curator_tweet_id"),
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.feedId] }),
    index("submission_feeds_feed_submitted_idx").on(t.feedId, t.submittedAt, t.submissionId),
    index("submission_feeds_feed_status_submitted_idx").on(t.feedId, t.status, t.submittedAt, t.submissionId),
    index("submission_feeds_curator_idx").on(t.curatorUsername, t.feedId),
    // `!approve`/`!reject` replies find the links their curator's submit post made.
    index("submission_feeds_curator_tweet_idx").on(t.curatorTweetId),
  ],
);

export const moderationHistory = pgTable(
  "moderation_history",
  {
    id: serial("id").primaryKey(),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.tweetId, { onDelete: "cascade" }),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    moderatorAccountId: text("moderator_account_id").notNull(),
    moderatorAccountIdType: text("moderator_account_id_type", {
      enum: ["near", "platform_username"],
    }).notNull(),
    source: text("source", {
      enum: ["ui", "platform_comment", "auto_approval", "super_admin_direct"],
    }).notNull(),
    action: text("action", { enum: ["approve", "reject"] }).notNull(),
    note: text("note"),
    /** A rejection that took back an approved, published post (a retraction). */
    retraction: boolean("retraction").notNull().default(false),
    /** When the decision was taken back inside its undo window, and by whom; it then counts no more. */
    undoneAt: timestamp("undone_at", { withTimezone: true, mode: "date" }),
    undoneBy: text("undone_by"),
    /**
     * Reputation (docs/decisions/0030), set by trigger when the decision is written (by the backfill for older
     * rows): the link's curator, whether the decision counts (false for self-decisions and auto-approvals; null
     * while not yet classified), how long the link waited for it (first decisions only), and when a later
     * retraction overturned the approval.
     */
    curatorUsername: text("curator_username"),
    counts: boolean("counts"),
    waitSeconds: integer("wait_seconds"),
    overturnedAt: timestamp("overturned_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("moderation_history_submission_idx").on(t.submissionId, t.createdAt),
    index("moderation_history_feed_idx").on(t.feedId, t.createdAt),
    index("moderation_history_moderator_idx").on(t.moderatorAccountId),
  ],
);

/**
 * Exact row counts per (scope, status), kept by triggers in the writing transaction so paged lists
 * can report totalCount without counting a million rows. Scope "*" is all submissions, else a feed id.
 */
export const submissionCounts = pgTable(
  "submission_counts",
  {
    scope: text("scope").notNull(),
    status: text("status").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.status] })],
);

/**
 * The same counts per UTC day of `submitted_at` (the submission's for scope "*", the feed link's for a feed), so a
 * deep page finds the day it starts in by summing a few day rows instead of skipping every row before it
 * (docs/decisions/0020).
 */
export const submissionDayCounts = pgTable(
  "submission_day_counts",
  {
    scope: text("scope").notNull(),
    day: date("day").notNull(),
    status: text("status").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.day, t.status] })],
);

export const users = pgTable("users", {
  id: serial("id").primaryKey(),
  nearAccountId: text("near_account_id").notNull().unique(),
  username: text("username"),
  profileImage: text("profile_image"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A signed-in person: their NEAR account and profile. */
export type User = typeof users.$inferSelect;

export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Personal API tokens (docs/decisions/0029): only the SHA-256 of each secret is kept, so a copy of the database lets
 * no one act as anybody. Revoked and expired tokens stay listed for their owner until the account goes.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scopes: jsonb("scopes").$type<ApiScope[]>().notNull(),
    secretHash: text("secret_hash").notNull(),
    /** The prefix and the first characters of the secret, shown to tell tokens apart. */
    hint: text("hint").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("api_tokens_secret_hash_idx").on(t.secretHash),
    index("api_tokens_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/** Each change made with a token: its owner's private activity (the public log says only "via API token"). */
export const apiTokenUses = pgTable(
  "api_token_uses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tokenId: text("token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    /** The route as the API documents it, never the request's own path or query. */
    route: text("route").notNull(),
    status: integer("status").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("api_token_uses_user_at_idx").on(t.userId, t.at, t.id),
    index("api_token_uses_at_idx").on(t.at),
  ],
);

export const authRequests = pgTable(
  "auth_requests",
  {
    nonce: text("nonce").primaryKey(),
    accountId: text("account_id").notNull(),
    recipient: text("recipient").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("auth_requests_expires_idx").on(t.expiresAt)],
);

export const linkedAccounts = pgTable(
  "linked_accounts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platformName: text("platform_name").notNull(),
    platformUserId: text("platform_user_id").notNull(),
    username: text("username").notNull(),
    profileImage: text("profile_image"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("linked_accounts_platform_user_idx").on(t.platformName, t.platformUserId),
    index("linked_accounts_user_idx").on(t.userId),
    index("linked_accounts_username_idx").on(sql`lower(${t.username})`),
  ],
);

/** One-time codes proving a handle: whoever posts `!link <code>` to the bot links that handle to `user_id`. */
export const linkCodes = pgTable(
  "link_codes",
  {
    code: text("code").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("link_codes_user_idx").on(t.userId)],
);

export const activities = pgTable(
  "activities",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: text("user_id").notNull(),
    type: text("type", { enum: ACTIVITY_TYPES }).notNull(),
    timestamp: timestamp("timestamp", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    feedId: text("feed_id"),
    submissionId: text("submission_id"),
    data: jsonb("data").$type<Record<string, unknown>>(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("activities_user_timestamp_idx").on(t.userId, t.timestamp),
    index("activities_feed_timestamp_idx").on(t.feedId, t.timestamp),
    index("activities_type_timestamp_idx").on(t.type, t.timestamp),
  ],
);

/** Per-feed curator statistics kept up to date by intake and moderation. */
export const feedUserStats = pgTable(
  "feed_user_stats",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    curatorUsername: text("curator_username").notNull(),
    curatorId: text("curator_id"),
    submissionCount: integer("submission_count").notNull().default(0),
    approvalCount: integer("approval_count").notNull().default(0),
    rejectionCount: integer("rejection_count").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.feedId, t.curatorUsername] }),
    index("feed_user_stats_curator_idx").on(t.curatorUsername, t.submissionCount.desc(), t.feedId),
    index("feed_user_stats_rank_idx").on(
      t.feedId,
      t.submissionCount.desc(),
      t.approvalCount.desc(),
      t.curatorUsername,
    ),
  ],
);

/** All-time totals per curator across feeds (the unfiltered leaderboard). Kept by triggers. */
export const curatorStats = pgTable(
  "curator_stats",
  {
    curatorUsername: text("curator_username").primaryKey(),
    curatorId: text("curator_id"),
    submissionCount: integer("submission_count").notNull().default(0),
    approvalCount: integer("approval_count").notNull().default(0),
    rejectionCount: integer("rejection_count").notNull().default(0),
  },
  (t) => [
    index("curator_stats_rank_idx").on(t.submissionCount.desc(), t.approvalCount.desc(), t.curatorUsername),
  ],
);

/** Per feed, curator and UTC day of submission: the time-ranged leaderboards. Kept by triggers. */
export const curatorDailyStats = pgTable(
  "curator_daily_stats",
  {
    feedId: text("feed_id").notNull(),
    curatorUsername: text("curator_username").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    curatorId: text("curator_id"),
    submissionCount: integer("submission_count").notNull().default(0),
    approvalCount: integer("approval_count").notNull().default(0),
    rejectionCount: integer("rejection_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.feedId, t.curatorUsername] }),
    index("curator_daily_stats_feed_day_idx").on(t.feedId, t.day),
  ],
);

/**
 * Per UTC month of submission, curator and feed: the This Month leaderboard. `scope` is a feed id or "*" (all
 * feeds); `curator_username` is a handle or "*" (every curator: the feed's total for the month). A month of daily
 * rows is about as many rows as a month of links; these are at most one per curator and feed, and the rank index
 * reads the top of a month in order. Kept by the same triggers as the daily rows (docs/decisions/0004).
 */
export const curatorMonthlyStats = pgTable(
  "curator_monthly_stats",
  {
    month: date("month", { mode: "string" }).notNull(),
    curatorUsername: text("curator_username").notNull(),
    scope: text("scope").notNull(),
    curatorId: text("curator_id"),
    submissionCount: integer("submission_count").notNull().default(0),
    approvalCount: integer("approval_count").notNull().default(0),
    rejectionCount: integer("rejection_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.month, t.curatorUsername, t.scope] }),
    index("curator_monthly_stats_rank_idx").on(
      t.scope,
      t.month,
      t.submissionCount.desc(),
      t.approvalCount.desc(),
      t.curatorUsername,
    ),
  ],
);

/**
 * The weekly twin of `curator_monthly_stats`, per UTC week of submission (`week` is its Monday): the This Week
 * leaderboard. Same scopes and `"*"` rows; kept by the same trigger function. Seven days of daily rows were about
 * as many rows as a week of links, summed on every request; the rank index reads the top of a week in order.
 */
export const curatorWeeklyStats = pgTable(
  "curator_weekly_stats",
  {
    week: date("week", { mode: "string" }).notNull(),
    curatorUsername: text("curator_username").notNull(),
    scope: text("scope").notNull(),
    curatorId: text("curator_id"),
    submissionCount: integer("submission_count").notNull().default(0),
    approvalCount: integer("approval_count").notNull().default(0),
    rejectionCount: integer("rejection_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.week, t.curatorUsername, t.scope] }),
    index("curator_weekly_stats_rank_idx").on(
      t.scope,
      t.week,
      t.submissionCount.desc(),
      t.approvalCount.desc(),
      t.curatorUsername,
    ),
  ],
);

/** Decisions per moderator (approver ranks). Kept by triggers. */
export const moderatorStats = pgTable(
  "moderator_stats",
  {
    moderatorAccountId: text("moderator_account_id").primaryKey(),
    approvalCount: integer("approval_count").notNull().default(0),
    rejectionCount: integer("rejection_count").notNull().default(0),
    totalCount: integer("total_count").notNull().default(0),
  },
  (t) => [index("moderator_stats_rank_idx").on(t.totalCount.desc(), t.moderatorAccountId)],
);

/**
 * Curator reputation from outcomes (docs/decisions/0030), per feed (`scope` = feed id) and overall (`scope` = "*"):
 * approvals and rejections decided by someone other than the curator, and approved posts later retracted. Kept by
 * triggers on moderation_history; `score` is the Wilson lower bound (95 %) of the approval rate
 * (`curate_wilson_lower_bound`, core's `wilsonLowerBound`), stored with the counts so the ranking reads an index.
 */
export const curatorReputation = pgTable(
  "curator_reputation",
  {
    scope: text("scope").notNull(),
    curatorUsername: text("curator_username").notNull(),
    approvedCount: integer("approved_count").notNull().default(0),
    rejectedCount: integer("rejected_count").notNull().default(0),
    retractedCount: integer("retracted_count").notNull().default(0),
    score: doublePrecision("score").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.curatorUsername] }),
    index("curator_reputation_rank_idx").on(
      t.scope,
      t.score.desc(),
      t.approvedCount.desc(),
      t.curatorUsername,
    ),
  ],
);

/**
 * Approver reputation, per feed and overall: decisions that count (never on one's own posts, never undone), those
 * later overturned (an approval retracted), and the median time to decide, recomputed on a schedule.
 */
export const approverReputation = pgTable(
  "approver_reputation",
  {
    scope: text("scope").notNull(),
    moderatorAccountId: text("moderator_account_id").notNull(),
    decisionCount: integer("decision_count").notNull().default(0),
    overturnedCount: integer("overturned_count").notNull().default(0),
    medianDecisionSeconds: integer("median_decision_seconds"),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.moderatorAccountId] }),
    index("approver_reputation_rank_idx").on(t.scope, t.decisionCount.desc(), t.moderatorAccountId),
  ],
);

/** Per feed: the median time to a decision over the recent window, recomputed on a schedule. */
export const feedQueueStats = pgTable("feed_queue_stats", {
  feedId: text("feed_id")
    .primaryKey()
    .references(() => feeds.id, { onDelete: "cascade" }),
  medianDecisionSeconds: integer("median_decision_seconds"),
  decisionsSampled: integer("decisions_sampled").notNull().default(0),
});

/** When each scheduled recomputation last finished ("as of" times), by name. */
export const statRefreshes = pgTable("stat_refreshes", {
  name: text("name").primaryKey(),
  refreshedAt: timestamp("refreshed_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** Where a resumable backfill stands: the last id it finished, and when it was done. */
export const backfillCursors = pgTable("backfill_cursors", {
  name: text("name").primaryKey(),
  cursor: bigint("cursor", { mode: "number" }).notNull().default(0),
  doneAt: timestamp("done_at", { withTimezone: true, mode: "date" }),
  updatedAt: updatedAt(),
});

/** Approvers who asked to be reminded when a feed's queue waits longer than its service level. */
export const queueReminderSubscriptions = pgTable(
  "queue_reminder_subscriptions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    /** Also by a Telegram message to the user's linked Telegram account. */
    telegram: boolean("telegram").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.feedId] }),
    index("queue_reminder_subscriptions_feed_idx").on(t.feedId),
  ],
);

/** In-app reminders: a feed's oldest item waited longer than its service level. */
export const queueReminders = pgTable(
  "queue_reminders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    submissionId: text("submission_id").notNull(),
    waitingSince: timestamp("waiting_since", { withTimezone: true, mode: "date" }).notNull(),
    /** How the Telegram copy went: sent, failed, or null when none was asked for. */
    telegramStatus: text("telegram_status", { enum: ["sent", "failed"] }),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("queue_reminders_user_idx").on(t.userId, t.createdAt.desc(), t.id.desc()),
    index("queue_reminders_user_feed_idx").on(t.userId, t.feedId, t.createdAt.desc()),
  ],
);

/** Site-wide counters too costly to count on each request (activities). Kept by triggers. */
export const siteCounters = pgTable("site_counters", {
  name: text("name").primaryKey(),
  count: bigint("count", { mode: "number" }).notNull().default(0),
});

/** A run of a feed's pipeline (its transforms, then each channel's), and the outbox the worker relays into its queue (decision 0009). */
export const processingJobs = pgTable(
  "processing_jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: PROCESSING_JOB_KINDS }).notNull().default("approval"),
    /** Null for batch kinds (recaps) that run over many submissions. */
    submissionId: text("submission_id").references(() => submissions.tweetId, { onDelete: "cascade" }),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    status: text("status", { enum: PROCESSING_JOB_STATUSES }).notNull().default("pending"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    retryOfJobId: text("retry_of_job_id"),
    /** The plan snapshot: transforms, distributor branches and where this job enters them. */
    plan: jsonb("plan").$type<unknown>(),
    /** Why a job ended without running steps, or what ended it (e.g. "Stream output is disabled"). */
    note: text("note"),
    /** Distribution idempotency keys derive from it: the same for resumes and retries of one publication. */
    publicationKey: text("publication_key"),
    /** Who asked for a retry, reprocess or tweak (null for approvals, which have their moderation record). */
    requestedBy: text("requested_by"),
    attempts: integer("attempts").notNull().default(0),
    /** Until when the worker running the job holds it; after that another worker may take it over. */
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    /** When the worker handed the job to the queue (null: still in the outbox). */
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }),
    /** An approval's undo window: the outbox keeps the job until then (null: at once). */
    notBefore: timestamp("not_before", { withTimezone: true, mode: "date" }),
    /**
     * Times the job went back into the outbox to wait for a scheduled channel's slot (decision 0036): each return
     * is relayed as a queue job of its own id, since the queue keeps the earlier ones for a day.
     */
    parkings: integer("parkings").notNull().default(0),
    /** A recap run's recap id (in the feed's `outputs.recap`) and the approvals it covers: [start, end). */
    recapId: text("recap_id"),
    periodStart: timestamp("period_start", { withTimezone: true, mode: "date" }),
    periodEnd: timestamp("period_end", { withTimezone: true, mode: "date" }),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    /**
     * The W3C traceparent of the span that asked for the job (an HTTP request, a mention poll), so the worker's
     * spans continue that trace; null when tracing is off.
     */
    traceParent: text("trace_parent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("processing_jobs_submission_feed_idx").on(t.submissionId, t.feedId, t.startedAt),
    index("processing_jobs_feed_status_idx").on(t.feedId, t.status, t.completedAt),
    index("processing_jobs_recap_idx").on(t.feedId, t.createdAt).where(sql`${t.recapId} is not null`),
    // The processing tab finds a feed's retracted posts from their retraction jobs.
    index("processing_jobs_retraction_idx").on(t.feedId, t.submissionId).where(sql`${t.kind} = 'retraction'`),
    index("processing_jobs_outbox_idx")
      .on(t.createdAt)
      .where(sql`${t.queuedAt} is null and ${t.status} = 'pending'`),
    // Queue depth and age by kind (Operations page, /metrics, alerts): only the open jobs, whatever the history.
    index("processing_jobs_open_idx")
      .on(t.kind, t.createdAt)
      .where(sql`${t.status} in ('pending', 'processing')`),
    // Every intake tick counts the acknowledgements still to send (the X budget keeps their calls aside).
    index("processing_jobs_open_acknowledgements_idx")
      .on(t.createdAt)
      .where(sql`${t.kind} = 'acknowledgement' and ${t.status} in ('pending', 'processing')`),
  ],
);

export const processingSteps = pgTable(
  "processing_steps",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => processingJobs.id, { onDelete: "cascade" }),
    stepOrder: integer("step_order").notNull(),
    type: text("type", { enum: PROCESSING_STEP_TYPES }).notNull(),
    stage: text("stage", { enum: PROCESSING_STEP_STAGES }).notNull(),
    /** The distributor branch (its index in the plan), or null for a global step. */
    branch: integer("branch"),
    /** The branch's stable identity (core's `branchKeys`: plugin and target), or null for a global step. */
    branchKey: text("branch_key"),
    /** Position within its chain (the global transforms, or one branch). */
    position: integer("position").notNull().default(0),
    pluginName: text("plugin_name").notNull(),
    /** An external plugin's code as run: the sha-256 of its entry point, so a changed file shows as a new version. */
    pluginVersion: text("plugin_version"),
    stepName: text("step_name"),
    config: jsonb("config").$type<unknown>(),
    status: text("status", { enum: PROCESSING_STEP_STATUSES }).notNull().default("pending"),
    input: jsonb("input").$type<unknown>(),
    output: jsonb("output").$type<unknown>(),
    error: jsonb("error").$type<unknown>(),
    idempotencyKey: text("idempotency_key"),
    attempts: integer("attempts").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("processing_steps_job_idx").on(t.jobId, t.stepOrder),
    // The Operations page and the failure-rate alert read the steps that ended in the last hour.
    index("processing_steps_completed_idx").on(t.completedAt),
  ],
);

/**
 * Where each recap's schedule stands: the latest scheduled run already made (so every slot runs once across all
 * workers) and the moment up to which approvals are covered by a run (the next run starts there).
 */
export const recapStates = pgTable(
  "recap_states",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    recapId: text("recap_id").notNull(),
    lastSlotAt: timestamp("last_slot_at", { withTimezone: true, mode: "date" }).notNull(),
    coveredUntil: timestamp("covered_until", { withTimezone: true, mode: "date" }).notNull(),
    lastRunAt: timestamp("last_run_at", { withTimezone: true, mode: "date" }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.recapId] })],
);

/**
 * The publish ledger: every successful send of a submission to one of a feed's channels, written in the
 * transaction that marks its distribution step done, with the reference the channel returned (message, page or row
 * id, URL, transaction hash). Retractions work from it and record what became of each entry.
 */
export const publications = pgTable(
  "publications",
  {
    id: text("id").primaryKey(),
    submissionId: text("submission_id").references(() => submissions.tweetId, { onDelete: "cascade" }),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => processingJobs.id, { onDelete: "cascade" }),
    /** One entry per distribution step: a step succeeds once. */
    stepId: text("step_id").notNull(),
    branch: integer("branch").notNull(),
    /**
     * The branch's stable identity (plugin and target): re-runs look up the newest entry still published under it,
     * whatever the branch's index is by then.
     */
    branchKey: text("branch_key").notNull(),
    pluginName: text("plugin_name").notNull(),
    stepName: text("step_name"),
    /** The distributor's config as the step ran it (placeholders unfilled), for the retraction's credentials. */
    config: jsonb("config").$type<unknown>(),
    referenceKind: text("reference_kind").notNull(),
    referenceId: text("reference_id"),
    referenceUrl: text("reference_url"),
    /** The step's whole output (the receipt): what a retraction needs besides the id (chat, channel, row). */
    receipt: jsonb("receipt").$type<unknown>(),
    status: text("status", { enum: PUBLICATION_STATUSES }).notNull().default("published"),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    retractedAt: timestamp("retracted_at", { withTimezone: true, mode: "date" }),
    retractionJobId: text("retraction_job_id"),
    retractionNote: text("retraction_note"),
  },
  (t) => [
    uniqueIndex("publications_step_idx").on(t.stepId),
    index("publications_submission_feed_idx").on(t.submissionId, t.feedId, t.publishedAt),
    // Every re-run's distribution looks up the live entry of its branch.
    index("publications_live_branch_idx")
      .on(t.submissionId, t.feedId, t.branchKey, t.publishedAt)
      .where(sql`${t.status} = 'published'`),
    index("publications_job_idx").on(t.jobId),
    index("publications_retraction_job_idx")
      .on(t.retractionJobId)
      .where(sql`${t.retractionJobId} is not null`),
  ],
);

export const plugins = pgTable(
  "plugins",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    type: text("type", { enum: ["transformer", "distributor", "source", "rule", "outcome"] }).notNull(),
    repoUrl: text("repo_url").notNull(),
    entryPoint: text("entry_point").notNull(),
    schemaDefinition: jsonb("schema_definition").$type<Record<string, unknown> | null>(),
    /** What the secret scan found in the stored registration (paths and kinds, never values); null when clean. */
    secretFindings: jsonb("secret_findings").$type<SecretFinding[]>(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Names are what feed configs write, and repositories what people recognise: neither may mean two plugins,
  // whatever their case.
  (t) => [
    uniqueIndex("plugins_name_idx").on(sql`lower(${t.name})`),
    uniqueIndex("plugins_repo_url_idx").on(sql`lower(${t.repoUrl})`),
    index("plugins_type_idx").on(t.type, t.name),
  ],
);

/**
 * What the server changed in a user's plugins or feeds and tells them on the Plugins page until they dismiss it
 * (decision 0022: registrations renamed to `@scope/name`, and the feeds rewritten to follow them).
 */
export const pluginNotices = pgTable(
  "plugin_notices",
  {
    id: serial("id").primaryKey(),
    /** The NEAR account told, lower-case. */
    accountId: text("account_id").notNull(),
    kind: text("kind", { enum: PLUGIN_NOTICE_KINDS }).notNull(),
    pluginId: integer("plugin_id").references(() => plugins.id, { onDelete: "set null" }),
    data: jsonb("data").$type<{ oldName: string; newName: string; feedIds: string[] }>().notNull(),
    createdAt: createdAt(),
    dismissedAt: timestamp("dismissed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("plugin_notices_account_idx").on(t.accountId, t.createdAt).where(sql`${t.dismissedAt} is null`),
  ],
);

export const sourceCursors = pgTable("source_cursors", {
  sourceKey: text("source_key").primaryKey(),
  cursor: text("cursor"),
  updatedAt: updatedAt(),
});

/**
 * Feeds whose due X searches wait for the operator's shared hourly X budget (intake/x-budget.ts), as the last
 * intake tick left them: the feed page says so. Each tick rewrites the whole set; deleted with the feed.
 */
export const xSearchWaits = pgTable("x_search_waits", {
  feedId: text("feed_id")
    .primaryKey()
    .references(() => feeds.id, { onDelete: "cascade" }),
  /** How many of the feed's X searches wait. */
  searches: integer("searches").notNull(),
  /** When they began waiting (kept while they keep waiting). */
  since: timestamp("since", { withTimezone: true, mode: "date" }).notNull(),
  /** When they should run, roughly: the next tick, or the next window when this one's part for searches is gone. */
  until: timestamp("until", { withTimezone: true, mode: "date" }).notNull(),
});

export const testPosts = pgTable(
  "test_tweets",
  {
    id: text("id").primaryKey(),
    text: text("text").notNull(),
    username: text("username").notNull(),
    inReplyToStatusId: text("in_reply_to_status_id"),
    hashtags: jsonb("hashtags").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("test_tweets_seq_idx").on(t.seq)],
);

export const rssItems = pgTable(
  "rss_items",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    guid: text("guid").notNull(),
    title: text("title"),
    link: text("link"),
    description: text("description"),
    content: text("content"),
    image: text("image"),
    platform: text("platform"),
    categories: jsonb("categories").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    author: text("author"),
    pubDate: timestamp("pub_date", { withTimezone: true, mode: "date" }).notNull(),
    /** Curation metadata: who submitted it to the feed, who approved it, the curator's note, the source post. */
    curator: text("curator"),
    approver: text("approver"),
    curatorNote: text("curator_note"),
    sourceUrl: text("source_url"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("rss_items_feed_guid_idx").on(t.feedId, t.guid),
    index("rss_items_feed_pub_date_idx").on(t.feedId, t.pubDate),
    // The feed's newest addition is its documents' version (ETag), read on every request.
    index("rss_items_feed_id_idx").on(t.feedId, t.id),
  ],
);

export const uploads = pgTable(
  "uploads",
  {
    hash: text("hash").primaryKey(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    extension: text("extension").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_created_by_idx").on(t.createdBy, t.createdAt)],
);

/**
 * Fixed-window counters for rate limits and budgets (sign-in attempts per address, writes per account, X API
 * calls per hour, …), kept in the database so every API and worker process counts against the same numbers.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true, mode: "date" }).notNull(),
  count: integer("count").notNull(),
});

/**
 * A feed's own secrets, sealed with AES-256-GCM under SECRETS_KEY (the feed id and name are bound in as associated
 * data, so a sealed value copied to another feed or name does not open). Deleted with the feed.
 */
export const feedSecrets = pgTable(
  "feed_secrets",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** base64 of iv (12 bytes) ‖ auth tag (16 bytes) ‖ ciphertext. */
    sealed: text("sealed").notNull(),
    /** Which key sealed it (a fingerprint, never the key), so a rotation knows what to re-seal. */
    keyId: text("key_id").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.name] }), index("feed_secrets_key_id_idx").on(t.keyId)],
);

/**
 * The next free sending slot of one channel destination (a Telegram chat, a Discord webhook, a Notion
 * integration): distributions reserve slots ahead of time and wait for theirs, so a burst publishes steadily.
 */
export const channelSlots = pgTable("channel_slots", {
  key: text("key").primaryKey(),
  nextAt: timestamp("next_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * A publication waiting for its scheduled channel's slot (decision 0036): one row per distribution step of a
 * scheduled channel. `position` orders a channel's line; `plannedAt` is when it goes (re-planned whenever the line
 * or the schedule changes). Taking the slot sets `slotAt`, unique per channel, so two sends never share a slot
 * whatever the number of workers.
 */
export const scheduledSends = pgTable(
  "scheduled_sends",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    /** The distributor's branch key (destinations.ts `branchKeys`). */
    channelKey: text("channel_key").notNull(),
    pluginName: text("plugin_name").notNull(),
    submissionId: text("submission_id").references(() => submissions.tweetId, { onDelete: "cascade" }),
    jobId: text("job_id")
      .notNull()
      .references(() => processingJobs.id, { onDelete: "cascade" }),
    stepId: text("step_id")
      .notNull()
      .unique()
      .references(() => processingSteps.id, { onDelete: "cascade" }),
    /** waiting → sending (the slot is taken) → sent; or cancelled (removed, undone, retracted). */
    status: text("status", { enum: ["waiting", "sending", "sent", "cancelled"] })
      .notNull()
      .default("waiting"),
    position: bigint("position", { mode: "number" }).notNull(),
    plannedAt: timestamp("planned_at", { withTimezone: true, mode: "date" }).notNull(),
    /** A moderator's "publish now": it keeps its time out of the line's plan. */
    publishNow: boolean("publish_now").notNull().default(false),
    slotAt: timestamp("slot_at", { withTimezone: true, mode: "date" }),
    note: text("note"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("scheduled_sends_line_idx")
      .on(t.feedId, t.channelKey, t.position)
      .where(sql`${t.status} = 'waiting'`),
    uniqueIndex("scheduled_sends_slot_idx").on(t.feedId, t.channelKey, t.slotAt),
    index("scheduled_sends_job_idx").on(t.jobId),
  ],
);

/**
 * A feed's distributor branch paused because the channel refused its credentials: later jobs do not call the
 * channel until an owner resumes it (or changes the config or a secret), then the held publications run again.
 */
export const channelPauses = pgTable(
  "channel_pauses",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    /** The plugin and a fingerprint of its config (placeholders unfilled): one destination of the feed. */
    channelKey: text("channel_key").notNull(),
    pluginName: text("plugin_name").notNull(),
    stepName: text("step_name"),
    code: text("code").notNull(),
    message: text("message").notNull(),
    /** The job whose step was refused. */
    jobId: text("job_id"),
    pausedAt: timestamp("paused_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.channelKey] })],
);

/**
 * A background bulk decision ("Select all N matching" beyond the cap of one call): the posts it took at its start
 * are its items, decided by a worker in transactions of a hundred; the counters move in the same transactions.
 */
export const bulkRuns = pgTable(
  "bulk_runs",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    action: text("action", { enum: ["approve", "reject"] }).notNull(),
    note: text("note"),
    /** The curation tab's search it was started from (null: every pending post). */
    query: text("query"),
    /** The network the curation tab was narrowed to (null: every network). */
    platform: text("platform", { enum: PLATFORMS }),
    requestedBy: text("requested_by").notNull(),
    /** The moderation source its decisions record ("ui", or "super_admin_direct"). */
    source: text("source", { enum: ["ui", "super_admin_direct"] }).notNull(),
    state: text("state", { enum: ["queued", "running", "completed", "failed"] })
      .notNull()
      .default("queued"),
    total: integer("total").notNull().default(0),
    decided: integer("decided").notNull().default(0),
    alreadyDecided: integer("already_decided").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    undone: integer("undone").notNull().default(0),
    /** The earliest and latest end of its approvals' undo windows (null: the feed publishes at once). */
    firstUndoUntil: timestamp("first_undo_until", { withTimezone: true, mode: "date" }),
    lastUndoUntil: timestamp("last_undo_until", { withTimezone: true, mode: "date" }),
    error: text("error"),
    /** When a worker handed it to the queue (null: still in the outbox). */
    queuedAt: timestamp("queued_at", { withTimezone: true, mode: "date" }),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("bulk_runs_feed_idx").on(t.feedId, t.createdAt),
    // One run at a time per feed.
    uniqueIndex("bulk_runs_one_active_per_feed_idx")
      .on(t.feedId)
      .where(sql`${t.state} in ('queued', 'running')`),
  ],
);

/** The posts of a bulk run, in the order it decides them; the outcome is written in the deciding transaction. */
export const bulkRunItems = pgTable(
  "bulk_run_items",
  {
    runId: text("run_id")
      .notNull()
      .references(() => bulkRuns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    submissionId: text("submission_id").notNull(),
    outcome: text("outcome", {
      enum: [
        "decided",
        "voted",
        "already_voted",
        "already_approved",
        "already_rejected",
        "not_found",
        "undone",
      ],
    }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.position] })],
);

/**
 * Every saved version of a feed's config (the edit page's history): who saved it, when, how (created, saved,
 * restored from an earlier version) and what changed against the version before.
 */
export const feedConfigVersions = pgTable(
  "feed_config_versions",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    kind: text("kind", { enum: ["created", "saved", "restored"] }).notNull(),
    restoredFrom: integer("restored_from"),
    savedBy: text("saved_by"),
    channelsChanged: boolean("channels_changed").notNull().default(false),
    /** The first 200 changes against the version before; changeCount counts them all. */
    changes: jsonb("changes").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    changeCount: integer("change_count").notNull().default(0),
    savedAt: timestamp("saved_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.version] })],
);

/**
 * The worker processes alive now (the Operations page): each writes its row every heartbeat and deletes it when it
 * stops; a row whose heartbeat is late belongs to a process that died.
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  role: text("role").notNull(),
  version: text("version").notNull(),
  /** Jobs the process was running at its last heartbeat, and how many it may run at once. */
  running: integer("running").notNull().default(0),
  concurrency: integer("concurrency").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * How each intake source fares (a bot's mentions on one network, or one search of a feed's source): when it was
 * last polled, last read without an error, and is next due. Rows of sources no longer configured are pruned.
 */
export const intakeSources = pgTable(
  "intake_sources",
  {
    sourceKey: text("source_key").primaryKey(),
    network: text("network").notNull(),
    feedId: text("feed_id").references(() => feeds.id, { onDelete: "cascade" }),
    lastPollAt: timestamp("last_poll_at", { withTimezone: true, mode: "date" }),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true, mode: "date" }),
    nextPollAt: timestamp("next_poll_at", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("intake_sources_feed_idx").on(t.feedId)],
);

/**
 * An incident the alert check opened (a queue too old, a failure rate, a silent source, a spent budget, a broken
 * moderation log): one open row per kind and subject; the admins are told once when it opens and once when it
 * resolves, and a notice that could not be delivered is tried again on the next check.
 */
export const operationAlerts = pgTable(
  "operation_alerts",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true, mode: "date" }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    openNotifiedAt: timestamp("open_notified_at", { withTimezone: true, mode: "date" }),
    resolveNotifiedAt: timestamp("resolve_notified_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("operation_alerts_open_idx").on(t.kind, t.subject).where(sql`${t.resolvedAt} is null`),
    index("operation_alerts_opened_idx").on(t.openedAt),
  ],
);

/**
 * One part of a moderation log entry as stored: its digest (what the chain commits to) and, unless redacted, its
 * value and salt. A private part is kept but shown to nobody; a redacted one has lost its value for good.
 */
export interface StoredLogField {
  digest: string;
  value?: unknown;
  salt?: string;
  private?: true;
  redactedBy?: number;
}

/**
 * Each feed's public moderation log, append-only and hash-chained (docs/decisions/0027): every decision and every
 * change of who moderates or how. Entries are appended under a lock on the feed's head row, so the chain never
 * forks; `actor_account`, `actor_handle` and `submission_id` repeat what the parts say, for the tab's filters.
 */
export const moderationLogEntries = pgTable(
  "moderation_log_entries",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    action: text("action", { enum: LOG_ACTIONS }).notNull(),
    via: text("via", { enum: LOG_VIAS }).notNull(),
    network: text("network"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
    fields: jsonb("fields").$type<Record<string, StoredLogField>>().notNull(),
    actorAccount: text("actor_account"),
    actorHandle: text("actor_handle"),
    submissionId: text("submission_id"),
  },
  (t) => [
    primaryKey({ columns: [t.feedId, t.seq] }),
    index("moderation_log_entries_action_idx").on(t.feedId, t.action, t.seq),
  ],
);

/** The newest entry of each feed's log: the row appends lock, one feed at a time. */
export const moderationLogHeads = pgTable("moderation_log_heads", {
  feedId: text("feed_id")
    .primaryKey()
    .references(() => feeds.id, { onDelete: "cascade" }),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
});

/** The instance's Ed25519 signatures over feeds' heads, made every LOG_SIGN_INTERVAL_MS while entries arrive. */
export const moderationLogSignatures = pgTable(
  "moderation_log_signatures",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true, mode: "date" }).notNull(),
    keyId: text("key_id").notNull(),
    signature: text("signature").notNull(),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.seq] })],
);

/** Every public key that signed heads here, so heads signed before a rotation stay verifiable. */
export const moderationLogKeys = pgTable("moderation_log_keys", {
  id: text("id").primaryKey(),
  /** The raw 32-byte Ed25519 public key, base64. */
  publicKey: text("public_key").notNull(),
  firstUsedAt: timestamp("first_used_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** What the background self-check last found in each feed's stored log. */
export const moderationLogChecks = pgTable("moderation_log_checks", {
  feedId: text("feed_id")
    .primaryKey()
    .references(() => feeds.id, { onDelete: "cascade" }),
  checkedAt: timestamp("checked_at", { withTimezone: true, mode: "date" }).notNull(),
  checkedThrough: bigint("checked_through", { mode: "number" }),
  brokenAt: bigint("broken_at", { mode: "number" }),
  problem: text("problem"),
});

/**
 * Email subscribers (issue 34, decision 0034): the only table that holds email addresses. A row is waiting until
 * its confirmation link is used (the link's token stored as a SHA-256 hash, single use, expiring); unsubscribing
 * deletes the row, and so does deleting the feed.
 */
export const emailSubscribers = pgTable(
  "email_subscribers",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    /** Trimmed and lower-cased. */
    address: text("address").notNull(),
    mode: text("mode", { enum: ["every", "digest"] }).notNull(),
    status: text("status", { enum: ["pending", "confirmed"] })
      .notNull()
      .default("pending"),
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true, mode: "date" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_subscribers_feed_address_idx").on(t.feedId, t.address),
    uniqueIndex("email_subscribers_confirm_token_idx").on(t.confirmTokenHash),
    // A bounce or complaint removes the address from every feed.
    index("email_subscribers_address_idx").on(t.address),
    // Who receives an issue: a feed's confirmed subscribers of one mode.
    index("email_subscribers_audience_idx").on(t.feedId, t.status, t.mode),
  ],
);

/**
 * Addresses no mail goes to, as salted hashes only (`email_keys.salt`): a feed's unsubscribed readers (feed_id
 * set: the record of the unsubscription; confirming again lifts it) and, for every feed, addresses the relay
 * refused for good or the provider reported as bounced or complained (feed_id null).
 */
export const emailSuppressions = pgTable(
  "email_suppressions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    addressHash: text("address_hash").notNull(),
    feedId: text("feed_id").references(() => feeds.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: ["unsubscribed", "rejected", "bounce", "complaint"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_suppressions_hash_idx").on(t.addressHash),
    index("email_suppressions_feed_idx").on(t.feedId, t.createdAt),
  ],
);

/** One mail a distribution step made (an item or a digest), rendered once; its recipients are its deliveries. */
export const emailIssues = pgTable(
  "email_issues",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    jobId: text("job_id"),
    /** The step's idempotency key: a resumed or retried send queues its issue once. */
    idempotencyKey: text("idempotency_key").notNull(),
    audience: text("audience", { enum: ["every", "digest"] }).notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    recipients: integer("recipients").notNull(),
    /** Set when a retraction cancelled what was not sent yet. */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_issues_key_idx").on(t.idempotencyKey),
    index("email_issues_feed_idx").on(t.feedId),
  ],
);

/**
 * One send record per (issue, subscriber): claimed as `sending` in its own commit before the relay is asked, so a
 * worker killed mid-send leaves it `sending` and nobody mails that subscriber that issue again.
 */
export const emailDeliveries = pgTable(
  "email_deliveries",
  {
    issueId: text("issue_id")
      .notNull()
      .references(() => emailIssues.id, { onDelete: "cascade" }),
    subscriberId: text("subscriber_id")
      .notNull()
      .references(() => emailSubscribers.id, { onDelete: "cascade" }),
    /** The issue's feed, so a delivery pass picks each feed's next batch from one index. */
    feedId: text("feed_id").notNull(),
    status: text("status", { enum: ["pending", "sending", "sent", "failed", "cancelled"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** The relay's reply code and a short reason (never the address). */
    error: text("error"),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.subscriberId] }),
    index("email_deliveries_pending_idx").on(t.feedId, t.issueId).where(sql`status = 'pending'`),
    index("email_deliveries_subscriber_idx").on(t.subscriberId),
  ],
);

/** This deployment's email keys, made on first use: the suppression hashes' salt and the links' HMAC key. */
export const emailKeys = pgTable("email_keys", {
  id: integer("id").primaryKey(),
  salt: text("salt").notNull(),
  linkKey: text("link_key").notNull(),
});

/** Each feed's subscriptions confirmed and ended per day (UTC), kept as they happen: the owner's growth chart. */
export const emailDays = pgTable(
  "email_days",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    confirmed: integer("confirmed").notNull().default(0),
    unsubscribed: integer("unsubscribed").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.feedId, t.day] })],
);

/**
 * Votes in feeds that decide by a quorum (docs/decisions/0033): one row per person per post and round. A person is
 * their Curate account when the handle they voted with is linked to one (one person across networks), else that
 * handle; an undo withdraws the round's votes, so the post is voted on afresh.
 */
export const moderationVotes = pgTable(
  "moderation_votes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    submissionId: text("submission_id")
      .notNull()
      .references(() => submissions.tweetId, { onDelete: "cascade" }),
    /** `near:<account>` or `handle:<handle key>`: who counts once. */
    voterKey: text("voter_key").notNull(),
    /** The voter as tallies show them: the handle they voted with (`@carol.bsky.social`) or their account. */
    voterLabel: text("voter_label").notNull(),
    /** Who voted as the moderation history names a decider: the account, or the handle key they replied with. */
    moderatorAccountId: text("moderator_account_id").notNull(),
    moderatorAccountIdType: text("moderator_account_id_type", {
      enum: ["near", "platform_username"],
    }).notNull(),
    action: text("action", { enum: ["approve", "reject"] }).notNull(),
    source: text("source", {
      enum: ["ui", "platform_comment", "auto_approval", "super_admin_direct"],
    }).notNull(),
    createdAt: createdAt(),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("moderation_votes_current_idx")
      .on(t.feedId, t.submissionId, t.voterKey)
      .where(sql`withdrawn_at is null`),
    index("moderation_votes_link_idx").on(t.submissionId, t.feedId),
  ],
);

/**
 * Each curator's standing in each feed with earned trust on (docs/decisions/0033): whether trusted, why, and when
 * that last changed (a promotion or demotion, also in the feed's moderation log).
 */
export const curatorTrust = pgTable(
  "curator_trust",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    /** `near:<account>` or `handle:<curator key>`, as votes key people. */
    personKey: text("person_key").notNull(),
    /** The curator as shown: their account, or their handle key. */
    curator: text("curator").notNull(),
    account: text("account"),
    trusted: boolean("trusted").notNull(),
    pinned: text("pinned", { enum: ["trusted", "untrusted"] }),
    approved: integer("approved").notNull().default(0),
    decided: integer("decided").notNull().default(0),
    explanation: text("explanation").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    evaluatedAt: timestamp("evaluated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.feedId, t.personKey] }),
    index("curator_trust_feed_idx").on(t.feedId, t.trusted, t.changedAt),
    index("curator_trust_curator_idx").on(t.curator),
    index("curator_trust_account_idx").on(t.account),
  ],
);

/**
 * Approver rights offered to a trusted curator over the trust policy's higher bar (decision 0033), one row per
 * person and feed: offered until an owner confirms (the curator joins the feed's approvers) or declines. A declined
 * offer is not made again by itself; the owners can still add the curator to the approvers by hand.
 */
export const approverOffers = pgTable(
  "approver_offers",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => feeds.id, { onDelete: "cascade" }),
    personKey: text("person_key").notNull(),
    curator: text("curator").notNull(),
    account: text("account"),
    /** The handle key their approver entry would name when they have no Curate account (`bluesky:erin.bsky.social`). */
    handleKey: text("handle_key"),
    status: text("status", { enum: ["offered", "confirmed", "declined"] })
      .notNull()
      .default("offered"),
    explanation: text("explanation").notNull(),
    offeredAt: timestamp("offered_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    decidedBy: text("decided_by"),
  },
  (t) => [
    primaryKey({ columns: [t.feedId, t.personKey] }),
    index("approver_offers_feed_idx").on(t.feedId, t.status),
  ],
);

/**
 * Feeds followable from the fediverse (issue 35, decision 0037): one row per feed that was ever an ActivityPub actor.
 * Deliberately not tied to `feeds` by a cascading key: when the feed is deleted the row stays as a tombstone
 * (`deletedAt`), so the actor id answers 410 and a new feed with the same id cannot take over its followers.
 */
export const fediverseActors = pgTable("fediverse_actors", {
  feedId: text("feed_id").primaryKey(),
  enabled: boolean("enabled").notNull().default(true),
  /** The actor's RSA key pair as JWKs (HTTP Signatures), made when the feed first opts in. */
  publicKey: jsonb("public_key").$type<Record<string, unknown>>().notNull(),
  privateKey: jsonb("private_key").$type<Record<string, unknown>>().notNull(),
  deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Remote actors following a feed's actor, with where to deliver to them (their shared inbox when they have one). */
export const fediverseFollowers = pgTable(
  "fediverse_followers",
  {
    feedId: text("feed_id")
      .notNull()
      .references(() => fediverseActors.feedId, { onDelete: "cascade" }),
    actorUri: text("actor_uri").notNull(),
    inbox: text("inbox").notNull(),
    sharedInbox: text("shared_inbox"),
    /** The Follow activity's id, which an Undo names. */
    followId: text("follow_id"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.feedId, t.actorUri] }),
    index("fediverse_followers_created_idx").on(t.feedId, t.createdAt),
  ],
);

/** What a feed's actor published: one Note per publication (the ledger's reference), its outbox. */
export const fediverseNotes = pgTable(
  "fediverse_notes",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id")
      .notNull()
      .references(() => fediverseActors.feedId, { onDelete: "cascade" }),
    content: text("content").notNull(),
    url: text("url"),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }),
    /** Set by a retraction: the note answers 410 and leaves the outbox. */
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("fediverse_notes_outbox_idx").on(t.feedId, t.publishedAt)],
);

/**
 * Signed deliveries waiting for (or done by) the workers' delivery passes: one activity to one inbox, retried with
 * exponential backoff until it is accepted or its attempts run out.
 */
export const fediverseDeliveries = pgTable(
  "fediverse_deliveries",
  {
    id: text("id").primaryKey(),
    feedId: text("feed_id").notNull(),
    inbox: text("inbox").notNull(),
    activityId: text("activity_id").notNull(),
    activity: jsonb("activity").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The inbox's status and a short reason from the last failed attempt. */
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("fediverse_deliveries_once_idx").on(t.activityId, t.inbox),
    index("fediverse_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** Fedify's key-value store (its key and document caches, inbox idempotency), kept on the project's database. */
export const fediverseKv = pgTable(
  "fediverse_kv",
  {
    key: text("key").primaryKey(),
    value: jsonb("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("fediverse_kv_expires_idx").on(t.expiresAt)],
);
