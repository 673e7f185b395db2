import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { ALL_FEED_ID, builtinPluginName, recapList } from "@curate/core";
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, rssItems } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { absoluteImageUrl } from "../uploads/service.ts";
import {
  jsonFeedDocument,
  type OpmlEntry,
  opmlDocument,
  type RssChannel,
  type RssFormat,
  xmlDocument,
} from "./documents.ts";
import { DEFAULT_MAX_ITEMS, feedSiteUrl, isOwnRssService, ownRssBase } from "./items.ts";

/** A generated document and what a client revalidates it with. */
export interface RssDocument {
  /** UTF-8, encoded once: every answer writes these bytes as they are. */
  body: Uint8Array<ArrayBuffer>;
  /** The same, gzipped once: readers ask for gzip, and compressing a large document per request is costly. */
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
  lastModified: Date;
}

export interface RssSettings {
  db: Database;
  publicUrl: string;
  /** Changes with every release, so that a new document layout is never answered with an old document's 304. */
  version: string;
  /**
   * How long a feed's state read from the database answers for (the public read cache's time, decision 0006): a
   * reader polling many times a second costs one query a second. 0 reads it on every request.
   */
  stateTtlMs: number;
}

interface RssOutput {
  config: Record<string, unknown>;
}

/** The feed's RSS distributor, when it publishes to this deployment's own RSS service. */
function ownRssOutput(distribute: unknown, publicUrl: string): RssOutput | null {
  if (!Array.isArray(distribute)) return null;
  for (const entry of distribute as Array<{ plugin?: unknown; config?: unknown }>) {
    if (typeof entry?.plugin !== "string" || builtinPluginName(entry.plugin) !== "rss") continue;
    const config = (entry.config && typeof entry.config === "object" ? entry.config : {}) as Record<
      string,
      unknown
    >;
    if (isOwnRssService(config.serviceUrl, publicUrl)) return { config };
  }
  return null;
}

/**
 * The RSS output the feed's documents follow: the stream's, else a recap's (a feed may publish only its digests to
 * RSS; their items are read at the same addresses). `live` leaves out a paused stream and disabled recaps.
 */
function feedRssOutput(
  outputs: { stream?: unknown; recap?: unknown } | null | undefined,
  publicUrl: string,
  live = false,
): RssOutput | null {
  const stream = outputs?.stream as { enabled?: unknown; distribute?: unknown } | undefined;
  const fromStream = live && stream?.enabled === false ? null : ownRssOutput(stream?.distribute, publicUrl);
  if (fromStream) return fromStream;
  for (const recap of recapList(outputs?.recap)) {
    if (live && recap.enabled === false) continue;
    const output = ownRssOutput(recap.distribute, publicUrl);
    if (output) return output;
  }
  return null;
}

interface FeedState {
  id: string;
  name: string;
  description: string | null;
  image: string | null;
  updated_at: Date | string;
  outputs: { stream?: unknown; recap?: unknown } | null;
  last_id: string | number | null;
  last_added: Date | string | null;
  /** How many items the feed holds (a removal changes it). */
  item_count?: number | null;
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const MAX_CACHED = 256;
const MAX_CACHED_BYTES = 4 * 1024 * 1024;

/**
 * Serves feeds' documents. A request reads the feed's state in one indexed query (its config's change time and its
 * newest item's id), or takes it from the last second's read: that is the version its ETag is made from, so a
 * revalidation is answered without building anything, and a document built for this version is answered from
 * memory. Several API processes each keep their own copies; the version check keeps them all correct.
 */
export function createRssService(settings: RssSettings) {
  const base = ownRssBase(settings.publicUrl);
  const release = settings.version.replace(/[^\w.-]/g, "");
  const cache = new Map<string, RssDocument>();
  const building = new Map<string, Promise<RssDocument>>();

  const remember = (key: string, document: RssDocument) => {
    if (document.body.byteLength > MAX_CACHED_BYTES) return;
    cache.delete(key);
    cache.set(key, document);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  };

  const states = new Map<string, { state: FeedState | null; until: number }>();

  async function stateOf(feedId: string): Promise<FeedState | null> {
    if (settings.stateTtlMs <= 0) return readState(feedId);
    const now = Date.now();
    const known = states.get(feedId);
    if (known && known.until > now) return known.state;
    const state = await readState(feedId);
    states.delete(feedId);
    states.set(feedId, { state, until: now + settings.stateTtlMs });
    if (states.size > MAX_CACHED * 4) states.delete(states.keys().next().value as string);
    return state;
  }

  async function readState(feedId: string): Promise<FeedState | null> {
    // The newest item by id is the last one added, and the number of items changes when a retraction removes one
    // (trimming happens only when adding): together they change whenever the items do. A quarantined feed
    // (feeds/quarantine.ts) has no public documents until its owners fix its config.
    const [row] = await queryRows<FeedState>(
      settings.db,
      sql`select f.id, f.name, f.description, f.image, f.updated_at,
          f.config->'outputs' as outputs,
          last.id as last_id, last.created_at as last_added,
          (select count(*)::int from rss_items c where c.feed_id = f.id) as item_count
        from feeds f
        left join lateral (
          select i.id, i.created_at from rss_items i where i.feed_id = f.id order by i.id desc limit 1
        ) last on true
        where f.id = ${feedId} and f.secret_findings is null`,
    );
    return row ?? null;
  }

  async function build(format: RssFormat, state: FeedState, output: RssOutput, etag: string) {
    const feedConfig = (output.config.feedConfig ?? {}) as Record<string, unknown>;
    const maxItems = Number(output.config.maxItems) || DEFAULT_MAX_ITEMS;
    const items = await settings.db
      .select()
      .from(rssItems)
      .where(eq(rssItems.feedId, state.id))
      .orderBy(desc(rssItems.pubDate), desc(rssItems.id))
      .limit(Math.min(maxItems, 5000));
    const lastModified = lastModifiedOf(state);
    const channel: RssChannel = {
      feedId: state.id,
      title: typeof feedConfig.title === "string" && feedConfig.title ? feedConfig.title : state.name,
      description:
        typeof feedConfig.description === "string" && feedConfig.description
          ? feedConfig.description
          : (state.description ?? ""),
      siteUrl: feedSiteUrl(feedConfig, settings.publicUrl, state.id),
      image: absoluteImageUrl(state.image, settings.publicUrl),
      filesUrl: `${base}/${encodeURIComponent(state.id)}`,
      updated: lastModified,
    };
    const text = format === "json" ? jsonFeedDocument(channel, items) : xmlDocument(format, channel, items);
    const body = Buffer.from(text);
    return { body, gzipped: gzipSync(body), etag, lastModified };
  }

  return {
    /** Forgets what it read: stored data changed by a path it can hear of. */
    forget() {
      states.clear();
    },

    /**
     * The feed's document in a format, or null when no feed of that id publishes to this deployment's RSS service.
     * With `ifNoneMatch` matching, the document is not built: `body` is null.
     */
    async document(
      feedId: string,
      format: RssFormat,
      ifNoneMatch?: (etag: string) => boolean,
    ): Promise<(Pick<RssDocument, "etag" | "lastModified"> & Partial<RssDocument>) | null> {
      const state = await stateOf(feedId);
      if (!state) return null;
      const output = feedRssOutput(state.outputs, settings.publicUrl);
      if (!output) return null;
      // The version itself, not a hash of it: nothing in it is secret, and it is made on every request.
      const etag = `W/"${format}.${release}.${asDate(state.updated_at).getTime().toString(36)}.${state.last_id ?? 0}.${state.item_count ?? 0}"`;
      if (ifNoneMatch?.(etag)) return { etag, lastModified: lastModifiedOf(state) };
      const key = `${format}:${state.id}`;
      const cached = cache.get(key);
      if (cached?.etag === etag) return cached;
      const buildKey = `${key}:${etag}`;
      let pending = building.get(buildKey);
      if (!pending) {
        pending = build(format, state, output, etag).finally(() => building.delete(buildKey));
        building.set(buildKey, pending);
      }
      const document = await pending;
      remember(key, document);
      return document;
    },

    /** OPML of every feed with an enabled stream or recap publishing to RSS here, in name order. */
    async opml(): Promise<RssDocument> {
      const rows = await settings.db
        .select({
          id: feeds.id,
          name: feeds.name,
          description: feeds.description,
          config: feeds.config,
          updatedAt: feeds.updatedAt,
        })
        .from(feeds)
        .where(and(ne(feeds.id, ALL_FEED_ID), isNull(feeds.secretFindings)))
        .orderBy(feeds.name, feeds.id)
        .limit(10_000);
      const entries: OpmlEntry[] = [];
      let updated = new Date(0);
      for (const row of rows) {
        const outputs = (row.config as { outputs?: { stream?: unknown; recap?: unknown } }).outputs;
        // A directory of live feeds: a paused stream's files still answer, but it is not offered to new readers.
        if (!feedRssOutput(outputs, settings.publicUrl, true)) continue;
        if (row.updatedAt > updated) updated = row.updatedAt;
        entries.push({
          title: row.name,
          description: row.description ?? "",
          xmlUrl: `${base}/${encodeURIComponent(row.id)}/rss.xml`,
          htmlUrl: `${settings.publicUrl.replace(/\/+$/, "")}/feed/${encodeURIComponent(row.id)}`,
        });
      }
      const lastModified = wholeSeconds(updated);
      const body = Buffer.from(opmlDocument("Curate feeds", entries, lastModified));
      const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
      return { body, gzipped: gzipSync(body), etag, lastModified };
    },
  };
}

export type RssService = ReturnType<typeof createRssService>;

/**
 * HTTP dates have whole seconds: a Last-Modified is cut to them, or the If-Modified-Since a client sends back (the
 * same second) would read as older than the document, and never earn a 304.
 */
const wholeSeconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

function lastModifiedOf(state: FeedState): Date {
  const updated = asDate(state.updated_at);
  const added = state.last_added ? asDate(state.last_added) : null;
  return wholeSeconds(added && added > updated ? added : updated);
}
