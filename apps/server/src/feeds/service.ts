import { ALL_FEED_ID, type Feed, type FeedConfig } from "@curate/core";
import { and, asc, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { Database } from "../db/index.ts";
import { feeds } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../http/errors.ts";
import { moderatorConditions } from "./permissions.ts";

type FeedRow = typeof feeds.$inferSelect;

export function toFeed(row: FeedRow): Feed {
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
  };
}

/** Every feed a visitor can browse: all but the hidden catch-all feed. */
export async function listFeeds(db: Database): Promise<Feed[]> {
  const rows = await db
    .select()
    .from(feeds)
    .where(ne(feeds.id, ALL_FEED_ID))
    .orderBy(asc(feeds.name), asc(feeds.id));
  return rows.map(toFeed);
}

export async function findFeed(db: Database, id: string): Promise<Feed | null> {
  const [row] = await db.select().from(feeds).where(eq(feeds.id, id.toLowerCase())).limit(1);
  return row ? toFeed(row) : null;
}

export async function getFeed(db: Database, id: string): Promise<Feed> {
  const feed = await findFeed(db, id);
  if (!feed) throw AppError.notFound(`Feed "${id}" not found.`);
  return feed;
}

/** Feeds an account created or administers, newest first. */
export async function listFeedsOwnedBy(db: Database, accountId: string): Promise<Feed[]> {
  const account = accountId.toLowerCase();
  const rows = await db
    .select()
    .from(feeds)
    .where(
      and(
        ne(feeds.id, ALL_FEED_ID),
        or(
          sql`lower(${feeds.createdBy}) = ${account}`,
          sql`exists (select 1 from jsonb_array_elements_text(${feeds.admins}) a(account) where lower(a.account) = ${account})`,
        ),
      ),
    )
    .orderBy(desc(feeds.createdAt), asc(feeds.id));
  return rows.map(toFeed);
}

/** Feeds the user moderates as creator, admin or approver (super-admin rights are not listed). */
export async function listFeedsModeratedBy(db: Database, user: User): Promise<Feed[]> {
  const { creator, admin, approver } = moderatorConditions(user);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select f.id from feeds f where f.id <> ${ALL_FEED_ID} and (${creator} or ${admin} or ${approver})`,
  );
  return feedsByIds(
    db,
    rows.map((r) => r.id),
  );
}

/** Feeds the user submitted content to, as their NEAR account or any linked social handle. */
export async function listFeedsCuratedBy(db: Database, user: User): Promise<Feed[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select distinct sf.feed_id as id from submission_feeds sf
      where sf.feed_id <> ${ALL_FEED_ID} and (
        lower(sf.curator_username) = ${user.nearAccountId.toLowerCase()}
        or lower(sf.curator_username) in (
          select lower(la.username) from linked_accounts la where la.user_id = ${user.id}))`,
  );
  return feedsByIds(
    db,
    rows.map((r) => r.id),
  );
}

async function feedsByIds(db: Database, ids: string[]): Promise<Feed[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(feeds)
    .where(inArray(feeds.id, ids))
    .orderBy(asc(feeds.name), asc(feeds.id));
  return rows.map(toFeed);
}
