import type { Platform } from "@curate/core";

/** An image or video of a post, with the alt text its author gave it. */
export interface PostMedia {
  url: string;
  type: "image" | "video" | "gif" | "audio" | "file";
  alt?: string | null;
}

/**
 * A social post as intake sees it, whatever network or adapter it came from. `text` is the text as its author wrote
 * it, whatever the network did to it on the wire (HTML, entities, shortened links, facets): plain text with full
 * links, the same for cards, search, transforms and every channel.
 */
export interface SocialPost {
  platform: Platform;
  /** The post's id on its network (an X id, an AT-URI, a status URI, `chat:message` on Telegram, an item's guid). */
  id: string;
  text: string;
  /**
   * Where a command is read when it is not the whole text: a Mastodon post's body after its content warning (a
   * reply takes the warning of what it answers, and a command comes first in the body).
   */
  commandText?: string;
  authorId: string;
  authorUsername: string;
  authorDisplayName?: string | null;
  authorProfileImage?: string | null;
  media?: PostMedia[];
  /** The post's own address on its network, as the adapter knows it. */
  url: string;
  createdAt: Date;
  /** The id (on the same network) of the post this one replies to, when it is a reply. */
  inReplyToId?: string | null;
  /** The replied-to post itself, when the adapter could expand it. */
  repliedTo?: SocialPost | null;
}

/** The part of a post a curation command is read from. */
export function commandText(post: Pick<SocialPost, "text" | "commandText">): string {
  return post.commandText ?? post.text;
}

export interface FetchResult {
  posts: SocialPost[];
  /** Cursor to save once every post above is stored; null keeps the old one. */
  cursor: string | null;
}

/** Where the bot's mentions come from (X API v2, Bluesky, Mastodon, Telegram, or test posts outside production). */
export interface MentionSource {
  /** The cursor's key: one per network and bot account. */
  readonly key: string;
  readonly platform: Platform;
  /** The bot's handle on this network, as `!submit @<bot>` names it. */
  readonly botHandle: string;
  /**
   * Whether `!submit #feed` counts without naming the bot: where every message reaching the bot is meant for it
   * (a Telegram group the bot reads), as opposed to a public timeline of mentions.
   */
  readonly mentionOptional?: boolean;
  /**
   * Whether only one process may read it at a time (Telegram answers a second getUpdates poller 409): intake holds
   * a lock named by `key` around the pass, and a worker that cannot take it skips its pass.
   */
  readonly exclusive?: boolean;
  fetchMentions(cursor: string | null): Promise<FetchResult>;
}

export interface SearchSpec {
  type?: string;
  query?: string;
  /** The address a feed source reads (an RSS, Atom or JSON feed); older configs put it in `query`. */
  url?: string;
  pageSize?: number;
}

/** A feed source's search (X recent search, an RSS/Atom/JSON feed, or test posts). */
export interface SearchSource {
  search(spec: SearchSpec, cursor: string | null): Promise<FetchResult>;
}

/**
 * Newest-first APIs page backwards; intake applies posts oldest first so replies follow what they answer. X's ids
 * grow with time; other networks' ids (AT-URIs, status URIs, `chat:message`) do not, so their times order them.
 */
export function oldestFirst(posts: SocialPost[]): SocialPost[] {
  const numeric = (id: string) => /^\d+$/.test(id);
  return [...posts].sort((a, b) =>
    numeric(a.id) && numeric(b.id)
      ? compareIds(a.id, b.id)
      : a.createdAt.getTime() - b.createdAt.getTime() || compareIds(a.id, b.id),
  );
}

/** Integers joined by colons: X's ids, and Telegram's `chat:message` (message ids grow within a chat). */
const NUMERIC_PARTS = /^-?\d+(?::-?\d+)*$/;

export function compareIds(a: string, b: string): number {
  if (NUMERIC_PARTS.test(a) && NUMERIC_PARTS.test(b)) {
    const x = a.split(":").map(BigInt);
    const y = b.split(":").map(BigInt);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length - y.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
