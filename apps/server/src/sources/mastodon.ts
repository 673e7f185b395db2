import { parseCommand } from "@curate/core";
import type { Logger } from "pino";
import { z } from "zod";
import { MASTODON_PAGE_LIMIT, type MastodonClient } from "../clients/mastodon.ts";
import { fullAcct, MAX_CONTENT_HTML, plainText, statusText } from "./mastodon-text.ts";
import {
  commandText,
  compareIds,
  type FetchResult,
  type MentionSource,
  type PostMedia,
  type SearchSource,
  type SearchSpec,
  type SocialPost,
} from "./types.ts";

/**
 * Pages one pass reads at most; a longer backlog is read on by the next pass from the cursor saved meanwhile. Each
 * command that replies costs a status lookup too, and Mastodon allows an account 300 calls in 5 minutes.
 */
const MENTION_PAGES_PER_PASS = 5;
const TAG_PAGES_PER_PASS = 5;
/** Mastodon allows 4 attachments; remote servers may send more. */
const MAX_MEDIA = 16;
const MAX_MENTIONS = 100;
/** Visibilities anyone may read: a followers-only or direct post is never submitted to a public feed. */
const PUBLIC = new Set(["public", "unlisted"]);

const date = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date");
const accountSchema = z.object({
  acct: z.string().min(1).max(400),
  display_name: z.string().max(2000).nullish(),
  avatar: z.string().max(2000).nullish(),
});
const mediaSchema = z.object({
  type: z.string(),
  url: z.string().max(2000).nullish(),
  remote_url: z.string().max(2000).nullish(),
  description: z.string().max(5000).nullish(),
});
const statusSchema = z.object({
  id: z.string().min(1).max(64),
  uri: z.string().min(1).max(2000),
  url: z.string().max(2000).nullish(),
  created_at: date,
  content: z.string().max(MAX_CONTENT_HTML),
  spoiler_text: z.string().max(5000).nullish(),
  visibility: z.string().nullish(),
  in_reply_to_id: z.string().max(64).nullish(),
  account: accountSchema,
  media_attachments: z.array(z.unknown()).nullish(),
  mentions: z.array(z.object({ url: z.string(), acct: z.string() })).nullish(),
  reblog: z.unknown().nullish(),
});
const notificationSchema = z.object({ id: z.string().min(1).max(64), type: z.string(), status: z.unknown() });

export type MastodonStatus = z.infer<typeof statusSchema>;
type Status = MastodonStatus;

const MEDIA_TYPES: Record<string, PostMedia["type"]> = {
  image: "image",
  gifv: "gif",
  video: "video",
  audio: "audio",
};

function mediaOf(status: Status): PostMedia[] {
  return (status.media_attachments ?? []).slice(0, MAX_MEDIA).flatMap((entry) => {
    const parsed = mediaSchema.safeParse(entry);
    const url = parsed.success ? (parsed.data.url ?? parsed.data.remote_url) : null;
    if (!parsed.success || !url) return [];
    return [{ url, type: MEDIA_TYPES[parsed.data.type] ?? "file", alt: parsed.data.description ?? null }];
  });
}

/**
 * A status as intake reads it: its `uri` is its id (the same on every instance that has it, where the numeric
 * `id` is this instance's own), the content warning before the text as its author put it there.
 */
export function statusPost(status: Status, instanceHost: string): SocialPost {
  const handle = fullAcct(status.account.acct, instanceHost);
  const mentions = (status.mentions ?? []).slice(0, MAX_MENTIONS);
  const body = statusText(status.content, { instanceHost, mentions });
  const warning = plainText(status.spoiler_text ?? "");
  return {
    platform: "mastodon",
    id: status.uri,
    text: warning ? `${warning}\n\n${body}`.trim() : body,
    ...(warning ? { commandText: body } : {}),
    authorId: handle,
    authorUsername: handle,
    authorDisplayName: plainText(status.account.display_name ?? "") || null,
    authorProfileImage: status.account.avatar || null,
    media: mediaOf(status),
    url: status.url || status.uri,
    createdAt: new Date(status.created_at),
    inReplyToId: null,
    repliedTo: null,
  };
}

/** A status from the wire, or null (logged) when it is not one intake can read. */
export function readStatus(
  raw: unknown,
  logger?: Logger,
  context: Record<string, unknown> = {},
): Status | null {
  const parsed = statusSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  logger?.warn(
    { ...context, issues: parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`) },
    "malformed Mastodon status skipped",
  );
  return null;
}

/** The newest of `ids` and `current` (Mastodon's ids are numbers that grow with time). */
function newestId(current: string | null, ids: Iterable<string>): string | null {
  let newest = current;
  for (const id of ids) if (/^\d+$/.test(id) && (!newest || compareIds(id, newest) > 0)) newest = id;
  return newest;
}

/**
 * Everything newer than `cursor` on a list endpoint, following its Link header. With a cursor, `min_id` asks for the
 * page right after it and each page's rel="prev" names the next one up, so a pass that stops at its page bound has
 * read everything up to the cursor it saves and leaves no gap behind it (`since_id` gives the newest page first, and
 * stopping early there would skip the oldest). Without one (the first pass), rel="next" (`max_id`) pages back from
 * the newest as far as the bound: recent history is read once, older history is not replayed.
 */
async function itemsSince(
  client: MastodonClient,
  path: string,
  params: Array<[string, string]>,
  cursor: string | null,
  limit: number,
  maxPages: number,
): Promise<{ items: unknown[]; newest: string | null }> {
  const items: unknown[] = [];
  let newest = cursor;
  let from: [string, string] | null = cursor ? ["min_id", cursor] : null;
  for (let page = 0; page < maxPages; page++) {
    const result = await client.page(path, [...params, ["limit", String(limit)], ...(from ? [from] : [])]);
    // A page is never longer than asked; a server that sends more does not get to make the pass longer.
    const entries = result.items.slice(0, limit);
    items.push(...entries);
    newest = newestId(
      newest,
      entries.flatMap((item) => {
        const id = (item as { id?: unknown } | null)?.id;
        return typeof id === "string" ? [id] : [];
      }),
    );
    const next = cursor ? result.links.minId : result.links.maxId;
    // A short page is the last; a link that does not move on (a confused server) must not loop the pass.
    if (entries.length < limit || !next || (from && next === from[1])) break;
    from = [cursor ? "min_id" : "max_id", next];
  }
  return { items, newest };
}

export interface MastodonSourceOptions {
  /** The bot's account (`user` or `user@host`); asked of the instance when not given. */
  botAcct?: string;
  logger?: Logger;
  pageSize?: number;
  maxPages?: number;
}

/** The bot's mention notifications on its instance; a `!submit` reply brings the status it answers. */
export class MastodonMentionSource implements MentionSource {
  private readonly client: MastodonClient;
  private readonly options: MastodonSourceOptions;
  readonly key: string;
  readonly platform = "mastodon";
  private acct: string | null;

  constructor(client: MastodonClient, options: MastodonSourceOptions = {}) {
    this.client = client;
    this.options = options;
    this.acct = options.botAcct ? fullAcct(options.botAcct, client.instanceHost) : null;
    // One bot account per instance and deployment: the cursor is the instance's, whatever the token's account.
    this.key = `mastodon:mentions:${client.instanceHost}`;
  }

  /** `bot@host`; until the first pass has asked the instance, a handle nobody can write. */
  get botHandle(): string {
    return this.acct ?? `(unknown)@${this.client.instanceHost}`;
  }

  private async resolveHandle(): Promise<string> {
    this.acct ??= fullAcct((await this.client.verifyCredentials()).acct, this.client.instanceHost);
    return this.acct;
  }

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    const handle = await this.resolveHandle();
    const logger = this.options.logger;
    const { items, newest } = await itemsSince(
      this.client,
      "/api/v1/notifications",
      [["types[]", "mention"]],
      cursor || null,
      Math.min(this.options.pageSize ?? MASTODON_PAGE_LIMIT, MASTODON_PAGE_LIMIT),
      this.options.maxPages ?? MENTION_PAGES_PER_PASS,
    );
    const statuses = items.flatMap((item) => {
      const notification = notificationSchema.safeParse(item);
      if (!notification.success) {
        logger?.warn({ source: this.key }, "malformed Mastodon notification skipped");
        return [];
      }
      if (notification.data.type !== "mention" || !notification.data.status) return [];
      return readStatus(notification.data.status, logger, { notification: notification.data.id }) ?? [];
    });
    const known = new Map<string, Status | null>(statuses.map((status) => [status.id, status]));
    const posts: SocialPost[] = [];
    for (const status of statuses) {
      const post = statusPost(status, this.client.instanceHost);
      const visible = PUBLIC.has(status.visibility ?? "public");
      if (status.in_reply_to_id) {
        // Only a command needs what it answers: other replies are ignored by intake, and each lookup is a call.
        const parent = parseCommand(commandText(post), handle)
          ? await this.parent(status.in_reply_to_id, known)
          : null;
        post.inReplyToId = parent?.post.id ?? this.client.statusAddress(status.in_reply_to_id);
        post.repliedTo = parent?.public ? parent.post : null;
      } else if (!visible) {
        // Nobody but its recipients may read it: as its own submission it would publish a private post.
        continue;
      }
      posts.push(post);
    }
    return { posts, cursor: newest && newest !== cursor ? newest : null };
  }

  /** The status a reply answers: from this pass's page when it is there, else asked of the instance once. */
  private async parent(
    id: string,
    known: Map<string, Status | null>,
  ): Promise<{ post: SocialPost; public: boolean } | null> {
    if (!known.has(id)) {
      const raw = await this.client.status(id);
      known.set(id, raw === null ? null : readStatus(raw, this.options.logger, { status: id }));
    }
    const status = known.get(id);
    if (!status) return null;
    return {
      post: statusPost(status, this.client.instanceHost),
      public: PUBLIC.has(status.visibility ?? "public") && !status.reblog,
    };
  }
}

/** A hashtag as Mastodon's tag timeline takes it: `#Tag` or `Tag`, letters, digits and underscores. */
export function hashtagOf(query: string | undefined): string | null {
  const tag = (query ?? "").trim().replace(/^#/, "");
  return /^[\p{L}\p{N}_]{1,100}$/u.test(tag) ? tag : null;
}

/** A feed source's hashtag: the tag timeline of the bot's instance (which includes what it federates). */
export class MastodonSearchSource implements SearchSource {
  private readonly client: MastodonClient;
  private readonly options: Pick<MastodonSourceOptions, "logger" | "maxPages">;

  constructor(client: MastodonClient, options: Pick<MastodonSourceOptions, "logger" | "maxPages"> = {}) {
    this.client = client;
    this.options = options;
  }

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    const tag = hashtagOf(spec.query);
    if (!tag) return { posts: [], cursor };
    const limit = Math.min(Math.max(spec.pageSize ?? MASTODON_PAGE_LIMIT, 1), MASTODON_PAGE_LIMIT);
    const { items, newest } = await itemsSince(
      this.client,
      `/api/v1/timelines/tag/${encodeURIComponent(tag)}`,
      [],
      cursor || null,
      limit,
      this.options.maxPages ?? TAG_PAGES_PER_PASS,
    );
    const posts = items.flatMap((item) => {
      const status = readStatus(item, this.options.logger, { tag });
      if (!status || status.reblog || !PUBLIC.has(status.visibility ?? "public")) return [];
      return [statusPost(status, this.client.instanceHost)];
    });
    return { posts, cursor: newest ?? cursor };
  }
}
