import { ALL_FEED_ID, type Feed, type FeedConfig } from "@curate/core";
import { asc, eq, ne } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds } from "../db/schema.ts";
import { AppError } from "../http/errors.ts";

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
