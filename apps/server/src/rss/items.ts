import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { rssItems } from "../db/schema.ts";

export const DEFAULT_MAX_ITEMS = 500;

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
}

const asText = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;

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

function dateOf(...values: unknown[]): Date {
  for (const value of values) {
    if (typeof value !== "string" && typeof value !== "number" && !(value instanceof Date)) continue;
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}

/** Where an item comes from, judged by the host of its link (document 1 §3). */
export function platformOf(link: string | null): string {
  if (!link) return "other";
  let host: string;
  try {
    host = new URL(link).hostname.replace(/^www\./, "");
  } catch {
    return "other";
  }
  if (host === "x.com" || host === "twitter.com" || host.endsWith(".twitter.com")) return "twitter";
  if (host === "youtube.com" || host === "youtu.be" || host.endsWith(".youtube.com")) return "youtube";
  if (host === "github.com" || host.endsWith(".github.com") || host.endsWith(".github.io")) return "github";
  if (host === "reddit.com" || host.endsWith(".reddit.com") || host === "redd.it") return "reddit";
  return "other";
}

/**
 * An RSS item from a distribution's input (docs/plugins.md): `title`, `description` (or `summary`), `content`,
 * `link` (or `url`/`source`), `publishedAt` (or `pubDate`, `submittedAt`), `author` (text or `{ name }`),
 * `image`, `categories`, `guid`. Anything missing falls back to the submission's own fields.
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
    ? [...new Set(value.categories.filter((c): c is string => typeof c === "string" && c.trim() !== ""))]
        .map((c) => c.trim().slice(0, 100))
        .slice(0, 20)
    : [];
  return {
    guid: asText(value.guid, 500) ?? link ?? fallbackGuid,
    title: asText(value.title, 500) ?? (content ? content.split("\n")[0].slice(0, 200) : null),
    link,
    description: asText(value.description, 20_000) ?? asText(value.summary, 20_000) ?? content,
    content,
    image: httpUrl(value.image),
    platform: platformOf(link),
    categories,
    author,
    pubDate: dateOf(value.publishedAt, value.pubDate, value.submittedAt),
  };
}

export function guidHash(parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32);
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
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(rssItems)
      .values({ feedId, ...item })
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
