import { createHash } from "node:crypto";
import { rssPlatformOf } from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { rssItems } from "../db/schema.ts";
import { cleanText } from "../sources/safe-text.ts";

export const DEFAULT_MAX_ITEMS = 500;

/** This deployment's own RSS base: `{PUBLIC_URL}/rss`. */
export function ownRssBase(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/rss`;
}

/** Whether an RSS distributor's `serviceUrl` is this deployment's own service (the default when it names none). */
export function isOwnRssService(serviceUrl: unknown, publicUrl: string): boolean {
  if (typeof serviceUrl !== "string" || !serviceUrl.trim()) return true;
  const normal = (url: string) => {
    try {
      return new URL(url.trim()).href.replace(/\/+$/, "");
    } catch {
      return url.trim().replace(/\/+$/, "");
    }
  };
  return normal(serviceUrl) === normal(ownRssBase(publicUrl));
}

/** An item of a feed's built-in RSS service, as the RSS distributor stores it. */
export interface RssItemInput {
  guid: string;
  title: string | null;
  link: string | null;
  description: string | null;
  content: string | null;
  image: string | null;
  platform: string | null;
  categories: string[];
  author: string | null;
  pubDate: Date;
  /** Who submitted it to the feed, who approved it, the curator's note, and the source post's address. */
  curator: string | null;
  approver: string | null;
  curatorNote: string | null;
  sourceUrl: string | null;
}

function asText(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  const text = cleanText(value).trim();
  // Cleaned again: a cut may fall inside a surrogate pair.
  return text ? cleanText(text.slice(0, max)) : null;
}

function httpUrl(value: unknown): string | null {
  const text = asText(value, 2000);
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The feed's page as its documents name it: the RSS output's `feedConfig.siteUrl`, else its page here. */
export function feedSiteUrl(feedConfig: unknown, publicUrl: string, feedId: string): string {
  const configured = (feedConfig as { siteUrl?: unknown } | null | undefined)?.siteUrl;
  return httpUrl(configured) ?? `${publicUrl.replace(/\/+$/, "")}/feed/${encodeURIComponent(feedId)}`;
}

function dateOf(...values: unknown[]): Date {
  for (const value of values) {
    if (typeof value !== "string" && typeof value !== "number" && !(value instanceof Date)) continue;
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}

/**
 * An RSS item from a distribution's input (docs/plugins.md): `title`, `description` (or `summary`), `content`,
 * `link` (or `url`/`source`), `publishedAt` (or `pubDate`, `submittedAt`), `author` (text or `{ name }`),
 * `image`, `categories`, `guid`. Anything missing falls back to the submission's own fields. The curation
 * metadata comes from the submission's fields, which transforms' object outputs keep: `curatorUsername`,
 * `approver`, `curatorNotes`, and the source post's `url`.
 */
export function rssItemFrom(input: unknown, fallbackGuid: string): RssItemInput {
  const value = (
    input && typeof input === "object" && !Array.isArray(input) ? input : { content: input }
  ) as Record<string, unknown>;
  const link = httpUrl(value.link) ?? httpUrl(value.url) ?? httpUrl(value.source);
  const content = asText(value.content, 100_000);
  const author =
    asText(value.author, 300) ??
    asText((value.author as { name?: unknown } | null)?.name, 300) ??
    asText(value.username, 300);
  const categories = Array.isArray(value.categories)
    ? [...new Set(value.categories.map((c) => asText(c, 100)).filter((c): c is string => c !== null))].slice(
        0,
        20,
      )
    : [];
  return {
    guid: asText(value.guid, 500) ?? link ?? fallbackGuid,
    title: asText(value.title, 500) ?? (content ? content.split("\n")[0].slice(0, 200) : null),
    link,
    description: asText(value.description, 20_000) ?? asText(value.summary, 20_000) ?? content,
    content,
    image: httpUrl(value.image),
    platform: rssPlatformOf(link),
    categories,
    author,
    pubDate: dateOf(value.publishedAt, value.pubDate, value.submittedAt),
    curator: asText(value.curatorUsername, 100) ?? asText(value.curator, 100),
    approver: asText(value.approver, 100),
    curatorNote: asText(value.curatorNotes, 2000) ?? asText(value.curatorNote, 2000),
    sourceUrl: httpUrl(value.url) ?? httpUrl(value.sourceUrl),
  };
}

export function guidHash(parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32);
}

/** The row an item is stored as: every text cleaned of what no feed format may carry. */
function storedRssItem(feedId: string, item: RssItemInput) {
  const clean = (value: string | null) => (value === null ? null : cleanText(value));
  return {
    ...item,
    feedId,
    guid: cleanText(item.guid),
    title: clean(item.title),
    description: clean(item.description),
    content: clean(item.content),
    author: clean(item.author),
    categories: item.categories.map(cleanText),
    curator: clean(item.curator),
    approver: clean(item.approver),
    curatorNote: clean(item.curatorNote),
  };
}

/**
 * Adds an item to a feed's RSS service unless one with the same guid is there, and keeps the newest `maxItems`.
 * Returns whether it was new.
 */
export async function addRssItem(
  db: Database,
  feedId: string,
  item: RssItemInput,
  maxItems = DEFAULT_MAX_ITEMS,
): Promise<{ added: boolean }> {
  const values = storedRssItem(feedId, item);
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(rssItems)
      .values(values)
      .onConflictDoNothing({ target: [rssItems.feedId, rssItems.guid] })
      .returning({ id: rssItems.id });
    if (inserted.length) {
      await tx.execute(sql`delete from rss_items where feed_id = ${feedId} and id in (
        select id from rss_items where feed_id = ${feedId} order by pub_date desc, id desc offset ${maxItems})`);
    }
    return { added: inserted.length > 0 };
  });
}

export async function hasRssItem(db: Database, feedId: string, guid: string): Promise<boolean> {
  const rows = await db
    .select({ id: rssItems.id })
    .from(rssItems)
    .where(and(eq(rssItems.feedId, feedId), eq(rssItems.guid, guid)))
    .limit(1);
  return rows.length > 0;
}

/**
 * A replay's item (decision 0015): the item with this guid is replaced by the new one in every format (RSS, Atom,
 * JSON Feed read the same row); added when it is no longer there.
 */
export async function replaceRssItem(
  db: Database,
  feedId: string,
  item: RssItemInput,
  maxItems = DEFAULT_MAX_ITEMS,
): Promise<{ replaced: boolean }> {
  const values = storedRssItem(feedId, item);
  const { feedId: _feed, guid: _guid, ...changes } = values;
  return db.transaction(async (tx) => {
    const existed = await hasRssItem(tx, feedId, values.guid);
    await tx
      .insert(rssItems)
      .values(values)
      .onConflictDoUpdate({ target: [rssItems.feedId, rssItems.guid], set: changes });
    await tx.execute(sql`delete from rss_items where feed_id = ${feedId} and id in (
      select id from rss_items where feed_id = ${feedId} order by pub_date desc, id desc offset ${maxItems})`);
    return { replaced: existed };
  });
}

/**
 * Removes an item from a feed's RSS service (a retraction): it leaves every format at once, since RSS, Atom and
 * JSON Feed are all built from these rows. Returns whether it was there.
 */
export async function removeRssItem(
  db: Database,
  feedId: string,
  guid: string,
): Promise<{ removed: boolean }> {
  const removed = await db
    .delete(rssItems)
    .where(and(eq(rssItems.feedId, feedId), eq(rssItems.guid, cleanText(guid))))
    .returning({ id: rssItems.id });
  return { removed: removed.length > 0 };
}
