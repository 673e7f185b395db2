import {
  ALL_FEED_ID,
  canModerateFor,
  type DestinationOptions,
  FEED_CHANGED_MESSAGE,
  type Feed,
  type FeedConfig,
  type FeedSummary,
  feedConfigSchema,
  feedDestinations,
  handleKey,
  moderatorReason,
  trustPolicyOf,
  type XSearchWait,
} from "@curate/core";
import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { feeds, submissions } from "../db/schema.ts";
import { containsPattern, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { retireFediverseActor } from "../fediverse/service.ts";
import { reevaluatePins } from "../governance/trust.ts";
import { xSearchWaitOf } from "../intake/x-budget-store.ts";
import { moderationChanges } from "../moderation-log/config-changes.ts";
import { logLater, withModerationLog } from "../moderation-log/journal.ts";
import { replanChangedSchedules } from "../processing/schedule.ts";
import { ownRssBase } from "../rss/items.ts";
import { curatorKeysOf } from "../users/curators.ts";
import { configIssues } from "./config-checks.ts";
import { assertCanManageFeed, canManageFeed, linkedHandles } from "./permissions.ts";
import { recordCreation, recordSave, type SaveProvenance, versionConfig } from "./versions.ts";

type FeedRow = typeof feeds.$inferSelect;

export function toFeed(row: FeedRow, xSearchWait: XSearchWait | null = null): Feed {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image: row.image,
    createdBy: row.createdBy,
    admins: row.admins ?? [],
    config: row.config as FeedConfig,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    xSearchWait,
    quarantine: row.secretFindings?.length ? { findings: row.secretFindings } : null,
  };
}

/**
 * Lists leave quarantined feeds out (quarantine.ts), except for those who may fix them: the feed's creator and
 * admins. With no viewer (public lists, which the read cache shares among everyone) they are always left out.
 */
function listableBy(viewer: string | null) {
  if (!viewer) return isNull(feeds.secretFindings);
  const account = viewer.toLowerCase();
  return sql`(${feeds.secretFindings} is null or lower(${feeds.createdBy}) = ${account}
    or exists (select 1 from jsonb_array_elements_text(${feeds.admins}) a(account) where lower(a.account) = ${account}))`;
}

/** The most feeds one list answers: lists carry summaries, and this bounds even those. */
export const MAX_LISTED_FEEDS = 1000;

/**
 * The columns of a feed summary, read from the config in SQL so a list never loads whole configs: only the
 * distributors' plugin names and the few fields their public links use.
 */
const summaryColumns = {
  id: feeds.id,
  name: feeds.name,
  description: feeds.description,
  image: feeds.image,
  createdBy: feeds.createdBy,
  createdAt: feeds.createdAt,
  updatedAt: feeds.updatedAt,
  complete: sql<boolean>`coalesce(${feeds.config}->>'name', '') <> '' and coalesce(${feeds.config}->>'description', '') <> ''
    and jsonb_typeof(${feeds.config}->'sources') = 'array' and jsonb_array_length(${feeds.config}->'sources') > 0`,
  streamEnabled: sql<boolean>`coalesce((${feeds.config}->'outputs'->'stream'->>'enabled') = 'true', false)`,
  approverCount: sql<number>`coalesce((select sum(jsonb_array_length(h.handles))::int from jsonb_each(
    case when jsonb_typeof(${feeds.config}->'moderation'->'approvers') = 'object'
      then ${feeds.config}->'moderation'->'approvers' else '{}'::jsonb end) h(platform, handles)
    where jsonb_typeof(h.handles) = 'array'), 0)`,
  distributors: sql<Array<{ plugin: string; config?: Record<string, unknown> }> | null>`(
    select jsonb_agg(jsonb_build_object('plugin', d->'plugin', 'config', jsonb_build_object(
      'serviceUrl', d->'config'->'serviceUrl', 'chatId', d->'config'->'chatId', 'channelId', d->'config'->'channelId',
      'messageThreadId', d->'config'->'messageThreadId', 'databaseId', d->'config'->'databaseId',
      'guildId', d->'config'->'guildId', 'accountId', d->'config'->'accountId', 'url', d->'config'->'url',
      'handle', d->'config'->'handle')))
    from jsonb_array_elements(case when jsonb_typeof(${feeds.config}->'outputs'->'stream'->'distribute') = 'array'
      then ${feeds.config}->'outputs'->'stream'->'distribute' else '[]'::jsonb end) d
    where jsonb_typeof(d->'plugin') = 'string')`,
};

interface SummaryRow {
  id: string;
  name: string;
  description: string | null;
  image: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  complete: boolean;
  streamEnabled: boolean;
  approverCount: number;
  distributors: Array<{ plugin: string; config?: Record<string, unknown> }> | null;
}

function toSummary(row: SummaryRow, links: DestinationOptions): FeedSummary {
  const distributors = (row.distributors ?? []).map((d) => ({
    plugin: d.plugin,
    config: Object.fromEntries(Object.entries(d.config ?? {}).filter(([, v]) => v !== null)),
  }));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image: row.image,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    complete: Boolean(row.complete),
    streamEnabled: Boolean(row.streamEnabled),
    approverCount: Number(row.approverCount ?? 0),
    destinations: feedDestinations(distributors, row.id, links),
  };
}

/** How summaries link to this deployment's own RSS service (an RSS output without its own `serviceUrl`). */
export function destinationLinks(env: Pick<AppEnv, "PUBLIC_URL">): DestinationOptions {
  return { ownRssServiceUrl: ownRssBase(env.PUBLIC_URL) };
}

/** Every feed a visitor can browse, as summaries: all but the hidden catch-all feed and quarantined feeds. */
export async function listFeeds(db: Database, links: DestinationOptions = {}): Promise<FeedSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(feeds)
    .where(and(ne(feeds.id, ALL_FEED_ID), listableBy(null)))
    .orderBy(asc(feeds.name), asc(feeds.id))
    .limit(MAX_LISTED_FEEDS);
  return rows.map((row) => toSummary(row, links));
}

export async function findFeed(db: Database, id: string): Promise<Feed | null> {
  const [row] = await db.select().from(feeds).where(eq(feeds.id, id.toLowerCase())).limit(1);
  return row ? toFeed(row) : null;
}

/**
 * A feed as `viewer` may read it, with its X searches waiting for the shared X budget, if any: a quarantined feed
 * only for those who may fix it (its creator, admins and super admins), and as no such feed for everyone else.
 */
export async function getFeed(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  viewer: User | null,
  id: string,
): Promise<Feed> {
  const feed = await findFeed(db, id);
  const readable = feed && (!feed.quarantine || (viewer && (await canManageFeed(db, env, feed.id, viewer))));
  if (!readable) throw AppError.notFound(`Feed "${id}" not found.`);
  return { ...feed, xSearchWait: await xSearchWaitOf(db, feed.id) };
}

/** Feeds an account created or administers, newest first; quarantined ones only when it is the viewer's own list. */
export async function listFeedsOwnedBy(
  db: Database,
  accountId: string,
  links: DestinationOptions = {},
  viewer: User | null = null,
): Promise<FeedSummary[]> {
  const account = accountId.toLowerCase();
  const rows = await db
    .select(summaryColumns)
    .from(feeds)
    .where(
      and(
        ne(feeds.id, ALL_FEED_ID),
        listableBy(viewer?.nearAccountId.toLowerCase() === account ? account : null),
        or(
          sql`lower(${feeds.createdBy}) = ${account}`,
          sql`exists (select 1 from jsonb_array_elements_text(${feeds.admins}) a(account) where lower(a.account) = ${account})`,
        ),
      ),
    )
    .orderBy(desc(feeds.createdAt), asc(feeds.id))
    .limit(MAX_LISTED_FEEDS);
  return rows.map((row) => toSummary(row, links));
}

/**
 * Feeds the user moderates as creator, admin or approver (super-admin rights are not listed). SQL only narrows
 * the feeds to those whose owner, admins or approver lists mention one of the user's names; the moderator rule
 * itself decides.
 */
export async function listFeedsModeratedBy(
  db: Database,
  user: User,
  links: DestinationOptions = {},
): Promise<FeedSummary[]> {
  const handles = await linkedHandles(db, user.id);
  const names = [user.nearAccountId, ...handles.map((h) => h.handle)].map(handleKey);
  const mentions = names.map(
    (name) => sql`(lower(${feeds.createdBy}) = ${name}
      or ${feeds.admins}::text ilike ${containsPattern(name)} escape '\\'
      or (${feeds.config}->'moderation'->'approvers')::text ilike ${containsPattern(name)} escape '\\')`,
  );
  const candidates = await db
    .select({
      ...summaryColumns,
      admins: feeds.admins,
      moderation: sql<unknown>`${feeds.config}->'moderation'`,
    })
    .from(feeds)
    .where(
      and(
        sql`${feeds.id} <> ${ALL_FEED_ID} and (${sql.join(mentions, sql` or `)})`,
        listableBy(user.nearAccountId),
      ),
    )
    .orderBy(asc(feeds.name), asc(feeds.id))
    .limit(MAX_LISTED_FEEDS);
  const actor = { nearAccountId: user.nearAccountId, handles };
  return candidates
    .filter((row) =>
      canModerateFor(
        moderatorReason(
          { createdBy: row.createdBy, admins: row.admins, config: { moderation: row.moderation } },
          actor,
        ),
      ),
    )
    .map((row) => toSummary(row, links));
}

/**
 * Feeds the user submitted content to, as their NEAR account or any handle they linked on any network: the same
 * curator the leaderboard counts (`curatorKeysOf`), read from the same per-feed statistics.
 */
export async function listFeedsCuratedBy(
  db: Database,
  user: User,
  links: DestinationOptions = {},
): Promise<FeedSummary[]> {
  const keys = await curatorKeysOf(db, user);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select distinct s.feed_id as id from feed_user_stats s
      where s.curator_username in (${sql.join(
        keys.map((key) => sql`${key}`),
        sql`, `,
      )}) and s.submission_count > 0 and s.feed_id <> ${ALL_FEED_ID}`,
  );
  return feedsByIds(
    db,
    rows.map((r) => r.id),
    links,
    user,
  );
}

async function feedsByIds(
  db: Database,
  ids: string[],
  links: DestinationOptions,
  viewer: User,
): Promise<FeedSummary[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(summaryColumns)
    .from(feeds)
    .where(and(inArray(feeds.id, ids.slice(0, MAX_LISTED_FEEDS)), listableBy(viewer.nearAccountId)))
    .orderBy(asc(feeds.name), asc(feeds.id));
  return rows.map((row) => toSummary(row, links));
}

export interface FeedWrite {
  config: FeedConfig;
}

function columnsOf(config: FeedConfig) {
  return {
    name: config.name,
    description: config.description,
    image: config.image ? config.image : null,
    admins: config.admins ?? [],
    config: config as Record<string, unknown>,
    // Only a config without raw credentials is stored, so saving one ends a quarantine.
    secretFindings: null,
  };
}

async function assertStorable(db: Database, config: FeedConfig) {
  const issues = await configIssues(db, config);
  if (issues.length) {
    throw AppError.validation(
      `Invalid feed config: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
}

/** Creates a feed owned by `creator`; the id is the lower-cased hashtag and must be free. */
export async function createFeed(
  db: Database,
  creator: User,
  config: FeedConfig,
  limits: { feedsPerAccount: number } = { feedsPerAccount: Number.POSITIVE_INFINITY },
): Promise<Feed> {
  await assertStorable(db, config);
  const [owned] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from feeds where lower(created_by) = ${creator.nearAccountId.toLowerCase()}`,
  );
  if (owned.n >= limits.feedsPerAccount) {
    throw AppError.forbidden(
      `You already own ${owned.n} feeds, the most one account may create on this server. Delete one to create another.`,
    );
  }
  const id = config.id.toLowerCase();
  if (id === ALL_FEED_ID) throw AppError.conflict(`Feed "${id}" already exists.`);
  const row = await withModerationLog(db, async (tx) => {
    const [inserted] = await tx
      .insert(feeds)
      .values({ id, ...columnsOf({ ...config, id }), createdBy: creator.nearAccountId })
      .onConflictDoNothing({ target: feeds.id })
      .returning();
    if (inserted) {
      await recordCreation(tx, inserted, creator.nearAccountId);
      logLater(tx, moderationChanges(null, inserted, creator.nearAccountId));
      await reevaluatePins(tx, id, null, trustPolicyOf(inserted.config));
    }
    return inserted;
  });
  if (!row) throw AppError.conflict(`Feed "${id}" already exists.`);
  return toFeed(row);
}

/**
 * Replaces the stored config with the one sent (entries left out are removed), and keeps the save in the feed's
 * history (a new version with its diff) in the same transaction.
 */
export async function updateFeed(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
  config: FeedConfig,
  {
    expectedUpdatedAt,
    provenance = { kind: "saved" },
    alongside,
  }: {
    expectedUpdatedAt?: string;
    provenance?: SaveProvenance;
    /** Work that stands or falls with the save, in its transaction (a confirmed approver offer). */
    alongside?: (tx: Database) => Promise<void>;
  } = {},
) {
  const id = feedId.toLowerCase();
  const expected = expectedUpdatedAt?.replace(/^(W\/)?"|"$/g, "");
  if (expected !== undefined && Number.isNaN(Date.parse(expected))) {
    throw AppError.validation("If-Match must be the feed's updatedAt", [
      { path: "if-match", message: "Must be the feed's updatedAt (an ISO date)" },
    ]);
  }
  if (config.id.toLowerCase() !== id) {
    throw AppError.validation("Invalid feed config: id: the id cannot be changed", [
      { path: "id", message: "The id cannot be changed" },
    ]);
  }
  await assertStorable(db, config);
  await assertCanManageFeed(db, env, id, user);
  // The API shows updatedAt to the millisecond; the column keeps microseconds.
  const unchanged =
    expected === undefined
      ? undefined
      : sql`date_trunc('milliseconds', ${feeds.updatedAt}) = ${new Date(expected).toISOString()}::timestamptz`;
  let replanned = 0;
  const row = await withModerationLog(db, async (tx) => {
    // The row is locked first, so concurrent saves of one feed take their turns (and their version numbers).
    const [previous] = await tx.select().from(feeds).where(eq(feeds.id, id)).for("update");
    if (!previous) return undefined;
    const [updated] = await tx
      .update(feeds)
      .set({ ...columnsOf({ ...config, id }), updatedAt: sql`now()` })
      .where(and(eq(feeds.id, id), unchanged))
      .returning();
    if (updated) {
      await recordSave(tx, previous, updated, user.nearAccountId, provenance);
      logLater(tx, moderationChanges(previous, updated, user.nearAccountId));
      // A pin takes effect when saved; a changed quorum or bar judges posts and curators at their next event.
      await reevaluatePins(tx, id, trustPolicyOf(previous.config), trustPolicyOf(updated.config));
      // A changed channel schedule plans what already waits on it again (decision 0036).
      replanned = await replanChangedSchedules(
        tx,
        id,
        previous.config as FeedConfig,
        updated.config as FeedConfig,
      );
      await alongside?.(tx);
    }
    return updated;
  });
  if (!row) {
    if (unchanged && (await findFeed(db, id))) throw AppError.conflict(FEED_CHANGED_MESSAGE);
    throw AppError.notFound(`Feed "${id}" not found.`);
  }
  return { ...toFeed(row, await xSearchWaitOf(db, id)), scheduleReplanned: replanned };
}

/**
 * Deletes a feed with its links, moderation history and jobs (cascades), in one transaction; posts left
 * in no feed at all go too, so they do not linger on Explore.
 */
export async function deleteFeed(db: Database, env: AppEnv, user: User, feedId: string) {
  const id = feedId.toLowerCase();
  await assertCanManageFeed(db, env, id, user);
  await db.transaction(async (tx) => {
    const orphans = await queryRows<{ submissionId: string }>(
      tx,
      sql`select submission_id as "submissionId" from submission_feeds sf where sf.feed_id = ${id}
        and not exists (select 1 from submission_feeds o where o.submission_id = sf.submission_id and o.feed_id <> ${id})`,
    );
    await tx.delete(feeds).where(eq(feeds.id, id));
    // Its fediverse actor stays a tombstone (410) so the id's followers are not inherited (decision 0037).
    await retireFediverseActor(tx, id);
    if (orphans.length) {
      await tx.delete(submissions).where(
        inArray(
          submissions.tweetId,
          orphans.map((o) => o.submissionId),
        ),
      );
    }
  });
}

/**
 * Brings an earlier version back as a new save: the same checks and permission as a save (the config is validated
 * as it would be today), recorded as "restored from version n".
 */
export async function restoreFeedVersion(
  db: Database,
  env: AppEnv,
  user: User,
  feedId: string,
  version: number,
) {
  const stored = await versionConfig(db, env, user, feedId, version);
  const parsed = feedConfigSchema.safeParse(stored);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.join("."),
      message: issue.message,
    }));
    throw AppError.validation(
      `Version ${version} is not valid today: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
  return updateFeed(db, env, user, feedId, parsed.data, {
    provenance: { kind: "restored", restoredFrom: version },
  });
}
