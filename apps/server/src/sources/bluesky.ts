import { type Facet, RichText } from "@atproto/api";
import { parseCommand } from "@curate/core";
import type { Logger } from "pino";
import type { BlueskyClient, RawPage } from "../clients/bluesky.ts";
import {
  commandText,
  type FetchResult,
  type MentionSource,
  type PostMedia,
  type SearchSource,
  type SearchSpec,
  type SocialPost,
} from "./types.ts";

/** Where blobs named in a record (a notification carries records, not views) are served as images and video. */
const IMAGE_CDN = "https://cdn.bsky.app/img/feed_fullsize/plain";
const VIDEO_CDN = "https://video.bsky.app/watch";
/** A post record's text is at most 3,000 bytes by its lexicon; anything far beyond is not a post. */
const MAX_TEXT_CHARS = 10_000;
const MAX_FACETS = 200;
/** A post embeds at most 4 images. */
const MAX_MEDIA = 4;
const POST_URI =
  /^at:\/\/(did:[a-z]+:[a-zA-Z0-9._:%-]{1,2048})\/app\.bsky\.feed\.post\/([a-zA-Z0-9._~:-]{1,512})$/;
const UTF8 = new TextEncoder();

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const optionalText = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value : null;

/** Facets with whole, in-range byte indexes: anything else is dropped rather than trusted. */
function wellFormedFacets(facets: unknown, byteLength: number): Facet[] {
  if (!Array.isArray(facets)) return [];
  return facets.slice(0, MAX_FACETS).filter((facet): facet is Facet => {
    if (!isFields(facet) || !isFields(facet.index) || !Array.isArray(facet.features)) return false;
    const { byteStart, byteEnd } = facet.index;
    return (
      Number.isInteger(byteStart) &&
      Number.isInteger(byteEnd) &&
      (byteStart as number) >= 0 &&
      (byteStart as number) < (byteEnd as number) &&
      (byteEnd as number) <= byteLength
    );
  });
}

/** Whether a link's visible text is the app's short form of it ("example.com/long-pa..."), or the link itself. */
function showsLink(display: string, uri: string): boolean {
  const bare = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
      .replace(/^www\./, "");
  const shown = bare(display).replace(/(\.\.\.|…)$/, "");
  return shown.length > 0 && bare(uri).startsWith(shown);
}

/**
 * The text as its author wrote it: each link facet's full URI in place of the shortened text the app shows
 * (facet indexes count UTF-8 bytes, which the SDK's RichText slices by). A link on other words ("read this")
 * keeps the words and gives the link after them. Facets that cut a character in two are not the author's: the
 * text is kept as it came.
 */
export function textWithLinks(text: string, facets: unknown): string {
  const usable = wellFormedFacets(facets, UTF8.encode(text).length);
  if (usable.length === 0) return text;
  let result = "";
  for (const segment of new RichText({ text, facets: usable }).segments()) {
    const uri = segment.link?.uri;
    if (!uri) result += segment.text;
    else result += showsLink(segment.text, uri) ? uri : `${segment.text} (${uri})`;
  }
  return result.includes("\uFFFD") && !text.includes("\uFFFD") ? text : result;
}

/** A blob's CID, as JSON sends it (`ref.$link`), as the SDK hands it over (a CID object), or the legacy `cid`. */
function blobCid(blob: unknown): string | null {
  if (!isFields(blob)) return null;
  const ref = blob.ref;
  const cid = isFields(ref) && typeof ref.$link === "string" ? ref.$link : (ref?.toString() ?? blob.cid);
  return typeof cid === "string" && /^b[a-z2-7]{20,200}$/.test(cid) ? cid : null;
}

function imagesOf(images: unknown, urlOf: (image: Fields) => string | null): PostMedia[] {
  if (!Array.isArray(images)) return [];
  return images.slice(0, MAX_MEDIA).flatMap((image) => {
    if (!isFields(image)) return [];
    const url = urlOf(image);
    return url ? [{ url, type: "image" as const, alt: optionalText(image.alt) }] : [];
  });
}

/** Media as the AppView shows it in a post view (CDN addresses included). */
function mediaOfView(embed: Fields): PostMedia[] {
  const type = embed.$type;
  if (type === "app.bsky.embed.recordWithMedia#view")
    return isFields(embed.media) ? mediaOfView(embed.media) : [];
  if (type === "app.bsky.embed.images#view")
    return imagesOf(embed.images, (image) => optionalText(image.fullsize));
  if (type === "app.bsky.embed.video#view" && typeof embed.playlist === "string") {
    return [{ url: embed.playlist, type: "video", alt: optionalText(embed.alt) }];
  }
  return [];
}

/** Media as the record names it (blobs of the author's repository), served from Bluesky's CDN. */
function mediaOfRecord(embed: Fields, did: string): PostMedia[] {
  const type = embed.$type;
  if (type === "app.bsky.embed.recordWithMedia")
    return isFields(embed.media) ? mediaOfRecord(embed.media, did) : [];
  if (type === "app.bsky.embed.images") {
    return imagesOf(embed.images, (image) => {
      const cid = blobCid(image.image);
      return cid ? `${IMAGE_CDN}/${did}/${cid}@jpeg` : null;
    });
  }
  const video = type === "app.bsky.embed.video" ? blobCid(embed.video) : null;
  return video
    ? [
        {
          url: `${VIDEO_CDN}/${encodeURIComponent(did)}/${video}/playlist.m3u8`,
          type: "video",
          alt: optionalText(embed.alt),
        },
      ]
    : [];
}

/**
 * A post as Bluesky sends it — a post view (getPosts, searchPosts) or a notification (`uri`, `author`, `record`) —
 * as a SocialPost; null when it is not a well-formed post (the caller logs and skips it).
 */
export function normaliseBlueskyPost(raw: unknown): SocialPost | null {
  if (!isFields(raw) || typeof raw.uri !== "string") return null;
  const uri = POST_URI.exec(raw.uri);
  const { author, record } = raw;
  if (!uri || !isFields(author) || !isFields(record) || record.$type !== "app.bsky.feed.post") return null;
  if (typeof author.did !== "string" || author.did !== uri[1] || typeof author.handle !== "string")
    return null;
  if (typeof record.text !== "string" || record.text.length > MAX_TEXT_CHARS) return null;
  const createdAt = new Date(typeof record.createdAt === "string" ? record.createdAt : Number.NaN);
  if (Number.isNaN(createdAt.getTime())) return null;

  const did = author.did;
  // The AppView says `handle.invalid` when the handle no longer resolves to the account: its DID still does.
  const handle = author.handle.toLowerCase();
  const profile = handle === "handle.invalid" ? did : handle;
  const parent = isFields(record.reply) && isFields(record.reply.parent) ? record.reply.parent.uri : null;
  const media = isFields(raw.embed)
    ? mediaOfView(raw.embed)
    : isFields(record.embed)
      ? mediaOfRecord(record.embed, did)
      : [];
  return {
    platform: "bluesky",
    id: raw.uri,
    text: textWithLinks(record.text, record.facets),
    authorId: did,
    authorUsername: handle,
    authorDisplayName: optionalText(author.displayName),
    authorProfileImage: optionalText(author.avatar),
    media,
    url: `https://bsky.app/profile/${profile}/post/${uri[2]}`,
    createdAt,
    inReplyToId: typeof parent === "string" && POST_URI.test(parent) ? parent : null,
  };
}

/**
 * How far a newest-first listing has been read: `seen` is the newest time whose entries are all stored. When a
 * pass stops at its page limit before reaching `seen`, `backlog` says where the next pass goes on (the listing's
 * cursor) and the newest time that walk began with, which becomes `seen` once the walk reaches the old one.
 */
interface ListingState {
  seen: string | null;
  backlog?: { cursor: string; newest: string | null };
}

function readState(saved: string | null): ListingState {
  if (!saved) return { seen: null };
  try {
    const state = JSON.parse(saved) as ListingState;
    const seen = typeof state.seen === "string" && !Number.isNaN(Date.parse(state.seen)) ? state.seen : null;
    const backlog = state.backlog;
    return isFields(backlog) && typeof backlog.cursor === "string"
      ? {
          seen,
          backlog: {
            cursor: backlog.cursor,
            newest: typeof backlog.newest === "string" ? backlog.newest : null,
          },
        }
      : { seen };
  } catch {
    return { seen: null };
  }
}

const later = (a: string | null, b: string | null) =>
  !a ? b : !b ? a : Date.parse(b) > Date.parse(a) ? b : a;

/**
 * Reads a newest-first listing down to what `saved` covers, at most `maxPages` pages. Entries at the boundary
 * time are read again (intake stores nothing twice) so that two entries indexed in the same millisecond are never
 * split between passes.
 */
async function readListing(
  saved: string | null,
  maxPages: number,
  page: (cursor: string | undefined, since: string | null) => Promise<RawPage>,
  timeOf: (entry: unknown) => string | null,
): Promise<{ entries: unknown[]; state: ListingState }> {
  const state = readState(saved);
  const floor = state.seen ? Date.parse(state.seen) : null;
  let newest = state.backlog?.newest ?? null;
  let cursor = state.backlog?.cursor;
  const entries: unknown[] = [];
  for (let pages = 0; pages < maxPages; pages++) {
    const result = await page(cursor, state.seen);
    let reachedFloor = false;
    for (const entry of result.entries) {
      const time = timeOf(entry);
      const at = time ? Date.parse(time) : null;
      if (floor !== null && at !== null && at <= floor) reachedFloor = true;
      if (floor !== null && at !== null && at < floor) continue;
      entries.push(entry);
      newest = later(newest, time);
    }
    if (reachedFloor || !result.cursor) return { entries, state: { seen: later(state.seen, newest) } };
    cursor = result.cursor;
  }
  // A first pass has no older reading to reach: it starts from what it could read.
  if (floor === null) return { entries, state: { seen: newest } };
  return { entries, state: { seen: state.seen, backlog: { cursor: cursor ?? "", newest } } };
}

const indexedAt = (entry: unknown): string | null =>
  isFields(entry) && typeof entry.indexedAt === "string" && !Number.isNaN(Date.parse(entry.indexedAt))
    ? entry.indexedAt
    : null;

function postsOf(entries: unknown[], logger: Logger | undefined, what: string): SocialPost[] {
  const seen = new Set<string>();
  return entries.flatMap((entry) => {
    const post = normaliseBlueskyPost(entry);
    if (!post) {
      const uri = isFields(entry) && typeof entry.uri === "string" ? entry.uri.slice(0, 300) : null;
      logger?.warn({ uri }, `malformed Bluesky ${what} skipped`);
      return [];
    }
    if (seen.has(post.id)) return [];
    seen.add(post.id);
    return [post];
  });
}

export interface BlueskySourceOptions {
  /** Entries per listing call (the API allows 1–100). */
  pageSize?: number;
  /** Calls per pass; what is older waits for the next pass. */
  maxPages?: number;
  logger?: Logger;
}

const MENTION_REASONS = ["mention", "reply"];

/**
 * The bot's mention and reply notifications. A `!submit` that replies to a post submits that post: parents are
 * read with getPosts (25 a call) and become `repliedTo`.
 */
export class BlueskyMentionSource implements MentionSource {
  private readonly client: BlueskyClient;
  readonly botHandle: string;
  private readonly options: BlueskySourceOptions;
  readonly key: string;
  readonly platform = "bluesky";
  private readonly pageSize: number;
  private readonly maxPages: number;

  constructor(client: BlueskyClient, botHandle: string, options: BlueskySourceOptions = {}) {
    this.client = client;
    this.botHandle = botHandle;
    this.options = options;
    this.key = `bluesky:mentions:${botHandle.toLowerCase()}`;
    this.pageSize = Math.min(Math.max(options.pageSize ?? 50, 1), 100);
    this.maxPages = Math.min(Math.max(options.maxPages ?? 10, 1), 100);
  }

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    const { entries, state } = await readListing(
      cursor,
      this.maxPages,
      (page) =>
        this.client.listNotifications({ reasons: MENTION_REASONS, limit: this.pageSize, cursor: page }),
      indexedAt,
    );
    // The reasons filter is the server's; an older server ignores it and sends likes and follows too.
    const mentions = entries.filter(
      (entry) => isFields(entry) && MENTION_REASONS.includes(String(entry.reason)),
    );
    const posts = postsOf(mentions, this.options.logger, "notification");
    const parents = [
      ...new Set(
        posts.flatMap((post) =>
          post.inReplyToId && parseCommand(commandText(post), this.botHandle)?.kind === "submit"
            ? [post.inReplyToId]
            : [],
        ),
      ),
    ];
    if (parents.length) {
      const found = postsOf(await this.client.getPosts(parents), this.options.logger, "post");
      const byUri = new Map(found.map((post) => [post.id, post]));
      for (const post of posts) if (post.inReplyToId) post.repliedTo = byUri.get(post.inReplyToId) ?? null;
    }
    return { posts, cursor: JSON.stringify(state) };
  }
}

/** A feed source's Bluesky search: searchPosts, latest first, from what the last pass saw. */
export class BlueskySearchSource implements SearchSource {
  private readonly client: BlueskyClient;
  private readonly options: BlueskySourceOptions;

  constructor(client: BlueskyClient, options: BlueskySourceOptions = {}) {
    this.client = client;
    this.options = options;
  }

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    const query = spec.query?.trim();
    if (!query) return { posts: [], cursor };
    const limit = Math.min(Math.max(spec.pageSize ?? this.options.pageSize ?? 50, 1), 100);
    const { entries, state } = await readListing(
      cursor,
      Math.min(Math.max(this.options.maxPages ?? 5, 1), 100),
      (page, since) =>
        this.client.searchPosts({
          q: query.slice(0, 500),
          sort: "latest",
          limit,
          cursor: page,
          since: since ?? undefined,
        }),
      indexedAt,
    );
    return { posts: postsOf(entries, this.options.logger, "post"), cursor: JSON.stringify(state) };
  }
}
