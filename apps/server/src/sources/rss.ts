import { createHash } from "node:crypto";
import { type AnyFeed, type MediaNs, parseFeed, type RssFeed } from "feedsmith";
import type { Logger } from "pino";
import { callExternal, ExternalServiceError } from "../clients/http.ts";
import { checkOutboundUrl } from "../clients/outbound.ts";
import { readBodyUpTo } from "../http/bounded-body.ts";
import { type HtmlImage, type HtmlText, htmlToText } from "./html-text.ts";
import { cleanText } from "./safe-text.ts";
import type { FetchResult, PostMedia, SearchSource, SearchSpec, SocialPost } from "./types.ts";

export const RSS_LIMITS = {
  /** New items one pass turns into submissions: the newest, when a feed has more. */
  itemsPerPass: 100,
  documentBytes: 5 * 1024 * 1024,
  textChars: 10_000,
  nameChars: 200,
  idChars: 2000,
  mediaPerItem: 10,
};

/** A feed document that is not RSS, Atom, RDF or JSON Feed, or cannot be read as one. */
export class MalformedFeedError extends Error {
  override name = "MalformedFeedError";
}

/**
 * What a feed search remembers between passes: the validators of the last document (for a conditional GET) and
 * the newest item seen, so that only items after it become submissions.
 */
export interface FeedCursor {
  etag?: string;
  lastModified?: string;
  newest?: { id: string; date: string | null };
}

export function readFeedCursor(raw: string | null): FeedCursor {
  if (!raw) return {};
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const newest = value.newest as Record<string, unknown> | undefined;
    return {
      ...(typeof value.etag === "string" ? { etag: value.etag } : {}),
      ...(typeof value.lastModified === "string" ? { lastModified: value.lastModified } : {}),
      ...(newest && typeof newest.id === "string"
        ? { newest: { id: newest.id, date: typeof newest.date === "string" ? newest.date : null } }
        : {}),
    };
  } catch {
    // A cursor another adapter wrote (the search changed plugin): start afresh, the database keys on item ids.
    return {};
  }
}

/** One item of a feed, read whatever the format. */
interface FeedItem {
  guid: string | null;
  link: string | null;
  /** Plain text. */
  title: string;
  /** Plain text, and the images its markup showed. */
  body: string;
  bodyImages: HtmlImage[];
  author: string | null;
  date: string | null;
  media: PostMedia[];
}

/** The feed itself, and its items to read one by one (a malformed item must not stop the rest). */
interface FeedDocument {
  title: string;
  home: string | null;
  image: string | null;
  author: string | null;
  items: Array<() => FeedItem>;
}

const first = <T>(...values: Array<T | null | undefined>): T | null =>
  values.find((value) => value !== null && value !== undefined && value !== "") ?? null;

function httpUrl(raw: string | null | undefined, base: string): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function mediaType(mime: string | null | undefined, medium?: string | null): PostMedia["type"] | null {
  const kind = (medium ?? mime?.split("/")[0] ?? "").toLowerCase();
  if (mime?.toLowerCase() === "image/gif") return "gif";
  if (kind === "image" || kind === "video" || kind === "audio") return kind;
  return mime || medium ? "file" : null;
}

interface MediaCandidate {
  url?: string | null;
  mime?: string | null;
  medium?: string | null;
  alt?: string | null;
}

function toMedia(candidates: MediaCandidate[], base: string): PostMedia[] {
  const media: PostMedia[] = [];
  for (const candidate of candidates) {
    const url = httpUrl(candidate.url, base);
    const type = mediaType(candidate.mime, candidate.medium) ?? (url ? "image" : null);
    if (!url || !type || media.some((m) => m.url === url)) continue;
    media.push({ url, type, alt: candidate.alt ? cleanText(candidate.alt).trim() || null : null });
  }
  return media;
}

/** Media RSS (`media:content`, in groups or not, else `media:thumbnail`), as RSS, RDF and Atom items carry it. */
function mediaRss(media: MediaNs.ItemOrFeed | undefined): MediaCandidate[] {
  if (!media) return [];
  const contents = [
    ...(media.contents ?? []),
    ...(media.groups ?? []).flatMap((group) => group.contents ?? []),
  ];
  if (!contents.length) return (media.thumbnails ?? []).map((thumbnail) => ({ url: thumbnail.url }));
  return contents.map((content) => ({
    url: content.url,
    mime: content.type,
    medium: content.medium,
    alt: content.description?.value ?? content.title?.value ?? media.description?.value,
  }));
}

const html = (value: string | null | undefined, base: string) => htmlToText(value ?? "", base);
const text = (value: string | null | undefined) => cleanText(value ?? "").trim();
const NO_TEXT: HtmlText = { text: "", images: [] };

/** Atom's text constructs: `html` and `xhtml` are markup, `text` (the default) is what it says. */
function atomText(value: { value?: string; type?: string } | undefined, base: string): HtmlText {
  if (!value?.value) return NO_TEXT;
  if (value.type === "html" || value.type === "xhtml") return html(value.value, base);
  return { text: text(value.value), images: [] };
}

type RssItem = NonNullable<RssFeed.Feed<string>["items"]>[number];

function rssItem(item: RssItem, base: string): FeedItem {
  const summary = html(first(item.description, item.content?.encoded), base);
  return {
    guid: first(item.guid?.value),
    link: first(
      httpUrl(item.link, base),
      item.guid?.isPermaLink !== false ? httpUrl(item.guid?.value, base) : null,
    ),
    // RSS titles are written escaped as often as not; read as markup, both come out as the text.
    title: html(item.title, base).text,
    body: summary.text,
    bodyImages: summary.images,
    author: first(item.dc?.creators?.[0], item.authors?.[0]?.name),
    date: first(item.pubDate, item.dc?.dates?.[0], item.dcterms?.created?.[0]),
    media: toMedia(
      [
        ...(item.enclosures ?? []).map((enclosure) => ({ url: enclosure.url, mime: enclosure.type })),
        ...mediaRss(item.media),
      ],
      base,
    ),
  };
}

function readDocument(parsed: AnyFeed, feedUrl: string): FeedDocument {
  switch (parsed.format) {
    case "rss":
    case "rdf": {
      const channel = parsed.feed;
      const home = httpUrl(channel.link, feedUrl);
      const base = home ?? feedUrl;
      const items: RssItem[] =
        parsed.format === "rss"
          ? (parsed.feed.items ?? [])
          : (parsed.feed.items ?? []).map((item) => ({
              ...item,
              guid: item.rdf?.about ? { value: item.rdf.about } : undefined,
            }));
      return {
        title: html(channel.title, base).text,
        home,
        image: httpUrl(channel.image?.url, base),
        author: null,
        items: items.map((item) => () => rssItem(item, base)),
      };
    }
    case "atom": {
      const feed = parsed.feed;
      const alternate = (links: Array<{ href?: string; rel?: string }> | undefined, base: string) =>
        httpUrl(links?.find((link) => !link.rel || link.rel === "alternate")?.href, base);
      const home = alternate(feed.links, feedUrl);
      const base = home ?? feedUrl;
      return {
        title: atomText(feed.title, base).text,
        home,
        image: httpUrl(first(feed.icon, feed.logo), base),
        author: first(feed.authors?.[0]?.name),
        items: (feed.entries ?? []).map((entry) => () => {
          const summary = atomText(entry.summary, base);
          const body = summary.text || entry.content?.src ? summary : atomText(entry.content, base);
          return {
            guid: first(entry.id),
            link: alternate(entry.links, base),
            title: atomText(entry.title, base).text,
            body: body.text,
            bodyImages: body.images,
            author: first(entry.authors?.[0]?.name),
            date: first(entry.published, entry.updated),
            media: toMedia(
              [
                ...(entry.links ?? [])
                  .filter((link) => link.rel === "enclosure")
                  .map((link) => ({ url: link.href, mime: link.type })),
                ...mediaRss(entry.media),
              ],
              base,
            ),
          };
        }),
      };
    }
    case "json": {
      const feed = parsed.feed;
      const home = httpUrl(feed.home_page_url, feedUrl);
      const base = home ?? feedUrl;
      return {
        title: text(feed.title),
        home,
        image: httpUrl(first(feed.authors?.[0]?.avatar, feed.icon, feed.favicon), base),
        author: first(feed.authors?.[0]?.name),
        items: (feed.items ?? []).map((item) => () => {
          // JSON Feed says which fields are markup: summary and content_text are plain text.
          const body = item.summary
            ? { text: text(item.summary), images: [] }
            : item.content_text
              ? { text: text(item.content_text), images: [] }
              : html(item.content_html, base);
          return {
            guid: first(item.id),
            link: first(httpUrl(item.url, base), httpUrl(item.external_url, base)),
            title: text(item.title),
            body: body.text,
            bodyImages: body.images,
            author: first(item.authors?.[0]?.name),
            date: first(item.date_published, item.date_modified),
            media: toMedia(
              [
                { url: item.image, medium: "image" },
                ...(item.attachments ?? []).map((attachment) => ({
                  url: attachment.url,
                  mime: attachment.mime_type,
                  alt: attachment.title,
                })),
              ],
              base,
            ),
          };
        }),
      };
    }
  }
}

/** Cuts to `max` characters, whole words where it can. */
function bounded(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The item's id: its guid (RSS), id (Atom, JSON Feed) or rdf:about, else its link, else a hash of its title (its
 * text when untitled) and date. An id that is not an absolute URI (a bare "42", as many blogs number their posts)
 * is only unique within its feed, so it is qualified by the feed's address: two feeds' item 42 are two posts.
 */
const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:/i;

function itemId(item: FeedItem, feedUrl: string): string | null {
  const own = first(item.guid?.trim(), item.link);
  const id = !own ? hashedId(item, feedUrl) : ABSOLUTE_URI.test(own) ? own : `${feedUrl}#${own}`;
  return id && id.length <= RSS_LIMITS.idChars ? id : null;
}

function hashedId(item: FeedItem, feedUrl: string): string | null {
  const words = item.title || item.body;
  if (!words) return null;
  const hash = createHash("sha256")
    .update(`${words}\n${item.date ?? ""}`)
    .digest("hex");
  return `${feedUrl}#sha256:${hash}`;
}

/** A date as an ISO string, never later than now (a feed dated in the future must not hold every later item back). */
function itemDate(raw: string | null, now: Date): string | null {
  if (!raw) return null;
  const time = Date.parse(raw);
  if (Number.isNaN(time)) return null;
  return new Date(Math.min(time, now.getTime())).toISOString();
}

/** An item as a post, and its date when the feed gave one. */
export interface FeedEntry {
  post: SocialPost;
  date: string | null;
}

export interface FeedRead {
  entries: FeedEntry[];
  /** Items that could not be read (no id or no text at all, or markup the reader choked on). */
  skipped: number;
}

/**
 * Reads a feed document (RSS 2.0, RSS 1.0/RDF, Atom, JSON Feed) into posts, in document order. The text is the
 * title, a blank line, then the summary (or content) as plain text; the author is the item's, else the feed's, else
 * the feed's title; the post's address is the item's link, else the feed's home page. A document that is not a
 * feed throws MalformedFeedError; an item that cannot be read is skipped, logged and counted.
 */
export function readFeed(body: string, feedUrl: string, now: Date, logger?: Logger): FeedRead {
  let document: FeedDocument;
  try {
    document = readDocument(parseFeed(body.trimStart()), feedUrl);
  } catch (error) {
    throw new MalformedFeedError(`${feedUrl} is not an RSS, Atom or JSON feed: ${(error as Error).message}`);
  }
  const feedName = bounded(document.title || new URL(feedUrl).host, RSS_LIMITS.nameChars);
  const entries: FeedEntry[] = [];
  let skipped = 0;
  for (const [index, read] of document.items.entries()) {
    try {
      const item = read();
      const id = itemId(item, feedUrl);
      // A title that opens the body (a microblog's first line) is not said twice.
      const combined =
        !item.title || item.body.startsWith(item.title)
          ? item.body
          : item.body
            ? `${item.title}\n\n${item.body}`
            : item.title;
      if (!id || !combined) {
        skipped++;
        logger?.warn({ feed: feedUrl, item: index }, "feed item has no id or no text; skipped");
        continue;
      }
      const date = itemDate(item.date, now);
      const author = bounded(first(item.author?.trim(), document.author) ?? feedName, RSS_LIMITS.nameChars);
      entries.push({
        date,
        post: {
          platform: "rss",
          id,
          text: bounded(combined, RSS_LIMITS.textChars),
          authorId: document.home ?? feedUrl,
          authorUsername: author,
          authorDisplayName: author,
          authorProfileImage: document.image,
          media: [...item.media, ...toMedia(item.bodyImages, feedUrl)]
            .filter((media, position, all) => all.findIndex((other) => other.url === media.url) === position)
            .slice(0, RSS_LIMITS.mediaPerItem),
          url: item.link ?? document.home ?? feedUrl,
          createdAt: date ? new Date(date) : now,
        },
      });
    } catch (error) {
      skipped++;
      logger?.warn({ err: error, feed: feedUrl, item: index }, "feed item could not be read; skipped");
    }
  }
  return { entries, skipped };
}

/**
 * The entries after the cursor's newest item, oldest first, at most `limit` (the newest of them), and the cursor's
 * new newest item. Dated items are new when dated at or after it (the same instant may carry several items; the
 * database keeps each once); undated ones when listed before it, feeds listing newest first.
 */
export function newEntries(
  entries: FeedEntry[],
  newest: FeedCursor["newest"],
  limit: number,
): { posts: SocialPost[]; newest: FeedCursor["newest"] } {
  const seenAt = newest ? entries.findIndex((entry) => entry.post.id === newest.id) : -1;
  const fresh = entries.filter((entry, index) => {
    if (!newest) return true;
    if (entry.post.id === newest.id) return false;
    if (entry.date && newest.date) return entry.date >= newest.date;
    return seenAt === -1 || index < seenAt;
  });
  const allDated = fresh.every((entry) => entry.date);
  const ordered = allDated
    ? [...fresh].sort((a, b) => (a.date! < b.date! ? -1 : a.date! > b.date! ? 1 : 0))
    : [...fresh].reverse();
  // ISO dates written by toISOString compare as strings. An undated feed's newest is the one it lists first.
  const dated = entries.filter((entry) => entry.date);
  const latest = dated.length ? dated.reduce((a, b) => (b.date! > a.date! ? b : a)) : (entries[0] ?? null);
  const next =
    latest && (!newest?.date || (latest.date && latest.date > newest.date))
      ? { id: latest.post.id, date: latest.date }
      : newest;
  return { posts: ordered.slice(-limit).map((entry) => entry.post), newest: next };
}

export interface RssSourceOptions {
  /** Hosts a feed may be on although they are not public (`PRIVATE_HOSTS_ALLOWED`). */
  allowedHosts: readonly string[];
  logger?: Logger;
  timeoutMs?: number;
  /** Further attempts within a pass after a 429/5xx; a feed still failing is tried again at its next pass. */
  retries?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

const ACCEPT =
  "application/rss+xml, application/atom+xml, application/feed+json, application/rdf+xml;q=0.9, application/json;q=0.8, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5";

/** The body, refused once past `max` bytes whatever the server announced. */
async function readBounded(response: Response, max: number): Promise<Buffer> {
  const bytes = await readBodyUpTo(response, max);
  if (!bytes) throw new MalformedFeedError(`the feed is more than the ${max} bytes a feed may be`);
  return bytes;
}

/** The document's characters: a byte order mark, else the Content-Type charset, else the XML declaration's. */
function decode(bytes: Buffer, contentType: string | null): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString("utf8");
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  const declared =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1] ??
    /^<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(bytes.subarray(0, 200).toString("latin1"))?.[1];
  try {
    return new TextDecoder(declared ?? "utf-8").decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/** Moved feeds are followed this far; each hop passes the outbound guard again. */
const MAX_REDIRECTS = 5;

/**
 * A feed search (`rss-source`): the search's `url` (or `query`) is an RSS, Atom, RDF or JSON Feed document's
 * address, fetched with a conditional GET. Each item after the newest one seen becomes a post; the cursor keeps the
 * document's validators and that newest item. Feed addresses are chosen by feed owners, so they go through the
 * outbound guard (public addresses only, up to five redirects followed, each one checked again).
 */
export class RssSearchSource implements SearchSource {
  private readonly options: RssSourceOptions;
  /** Until when a feed that answered 429 or 503 with Retry-After is left alone, by address. */
  private readonly notBefore = new Map<string, number>();

  constructor(options: RssSourceOptions) {
    this.options = options;
  }

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    const address = (spec.url ?? spec.query)?.trim();
    if (!address) return { posts: [], cursor };
    const url = await checkOutboundUrl(address, this.options.allowedHosts);
    const now = this.options.now?.() ?? new Date();
    const waitUntil = this.notBefore.get(url.href) ?? 0;
    if (waitUntil > now.getTime()) {
      throw new ExternalServiceError(
        "RSS feed",
        `${url.host} asked to wait; not fetched before ${new Date(waitUntil).toISOString()}.`,
        429,
        true,
        waitUntil - now.getTime(),
      );
    }
    const state = readFeedCursor(cursor);
    const headers: Record<string, string> = { Accept: ACCEPT, "User-Agent": "Curate-Feed-Reader/1" };
    if (state.etag) headers["If-None-Match"] = state.etag;
    if (state.lastModified) headers["If-Modified-Since"] = state.lastModified;

    let response: Response;
    try {
      response = await callExternal(
        url,
        { headers },
        {
          service: "RSS feed",
          reach: { privateHostsAllowed: this.options.allowedHosts, redirects: MAX_REDIRECTS },
          timeoutMs: this.options.timeoutMs ?? 15_000,
          retries: this.options.retries ?? 1,
          maxBackoffMs: 10_000,
          logger: this.options.logger,
          sleep: this.options.sleep,
        },
      );
    } catch (error) {
      if (error instanceof ExternalServiceError && error.retryAfterMs) {
        this.notBefore.set(url.href, now.getTime() + Math.min(error.retryAfterMs, 24 * 3_600_000));
      }
      throw error;
    }
    this.notBefore.delete(url.href);

    if (response.status === 304) return { posts: [], cursor };
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      throw new ExternalServiceError(
        "RSS feed",
        `${url.href} redirects (${response.status}${location ? ` to ${location}` : ""}) more than ${MAX_REDIRECTS} times: set the feed's address to where it moved.`,
        response.status,
        false,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ExternalServiceError(
        "RSS feed",
        `${url.href} answered ${response.status}.`,
        response.status,
        false,
      );
    }
    const body = decode(
      await readBounded(response, RSS_LIMITS.documentBytes),
      response.headers.get("content-type"),
    );
    // Links relative to the document resolve against where it was found, after any redirect.
    const read = readFeed(body, response.url || url.href, now, this.options.logger);
    const limit = Math.min(spec.pageSize ?? RSS_LIMITS.itemsPerPass, RSS_LIMITS.itemsPerPass);
    const fresh = newEntries(read.entries, state.newest, limit);
    const etag = response.headers.get("etag");
    const lastModified = response.headers.get("last-modified");
    const next: FeedCursor = {
      ...(etag ? { etag } : {}),
      ...(lastModified ? { lastModified } : {}),
      ...(fresh.newest ? { newest: fresh.newest } : {}),
    };
    return { posts: fresh.posts, cursor: JSON.stringify(next) };
  }
}
