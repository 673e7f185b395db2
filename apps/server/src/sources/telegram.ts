import type { Api } from "grammy";
import type { Logger } from "pino";
import { z } from "zod";
import type { FetchResult, MentionSource, PostMedia, SocialPost } from "./types.ts";

/**
 * What the bot reads: messages in groups and channel posts. Edits are left out: an edited command would be applied
 * a second time, and an edit of a submitted message has no update path.
 */
export const TELEGRAM_ALLOWED_UPDATES = ["message", "channel_post"] as const;

/**
 * Updates one pass reads: a single getUpdates call. Asking for the next page (a higher offset) would confirm this
 * one to Telegram before intake stored it, and a crash in between would lose it.
 */
export const TELEGRAM_UPDATES_PER_PASS = 100;

/** Photos carry no URL without the bot token in it; a stored post names the file by its id in this form instead. */
export const TELEGRAM_FILE_PREFIX = "telegram-file:";

/** Longer than any message (4096) or caption (1024) Telegram allows; anything beyond is cut. */
const MAX_TEXT = 4096;
/** Entities read per message; Telegram itself stops at 100. */
const MAX_ENTITIES = 100;

const chatSchema = z.object({
  id: z.number().int(),
  type: z.string().max(32),
  title: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
});

const userSchema = z.object({
  id: z.number().int(),
  is_bot: z.boolean().optional(),
  first_name: z.string().max(256),
  last_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
});

const entitySchema = z.object({
  type: z.string().max(64),
  offset: z.number().int().min(0),
  length: z.number().int().min(0),
  url: z.string().max(8192).optional(),
});

const photoSizeSchema = z.object({
  file_id: z.string().min(1).max(512),
  width: z.number().int(),
  height: z.number().int(),
  file_size: z.number().int().optional(),
});

const messageFields = {
  message_id: z.number().int().positive(),
  date: z.number().int().nonnegative(),
  chat: chatSchema,
  from: userSchema.optional(),
  sender_chat: chatSchema.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
  entities: z.array(z.unknown()).optional(),
  caption_entities: z.array(z.unknown()).optional(),
  photo: z.array(photoSizeSchema).max(32).optional(),
  is_topic_message: z.boolean().optional(),
  forum_topic_created: z.unknown().optional(),
};

const repliedMessageSchema = z.object(messageFields);
const messageSchema = z.object({ ...messageFields, reply_to_message: repliedMessageSchema.optional() });

type TelegramMessage = z.infer<typeof repliedMessageSchema> & {
  reply_to_message?: z.infer<typeof repliedMessageSchema>;
};
type TelegramEntity = z.infer<typeof entitySchema>;

/**
 * The text as its author sees it: Telegram sends plain text with formatting as entities beside it, so only hidden
 * links need writing out, as `label (url)` (or the URL alone when the label is the URL). Offsets count UTF-16 code
 * units, as JavaScript strings do; an entity that does not fit the text is ignored.
 */
export function applyEntities(text: string, rawEntities: readonly unknown[] | undefined): string {
  const links = (rawEntities ?? [])
    .slice(0, MAX_ENTITIES)
    .flatMap((raw) => {
      const entity = entitySchema.safeParse(raw);
      return entity.success && entity.data.type === "text_link" && entity.data.url ? [entity.data] : [];
    })
    .filter((entity) => entity.offset + entity.length <= text.length)
    .sort((a, b) => b.offset - a.offset);
  let result = text;
  let boundary = text.length;
  for (const link of links as Array<TelegramEntity & { url: string }>) {
    const end = link.offset + link.length;
    // Overlapping links would splice into each other's output; Telegram never sends them, a forged payload might.
    if (end > boundary) continue;
    const label = result.slice(link.offset, end);
    const shown = sameAddress(label, link.url) ? link.url : `${label} (${link.url})`;
    result = result.slice(0, link.offset) + shown + result.slice(end);
    boundary = link.offset;
  }
  return result;
}

function sameAddress(label: string, url: string): boolean {
  const bare = (value: string) =>
    value
      .trim()
      .replace(/^https?:\/\//i, "")
      .replace(/\/$/, "");
  return bare(label) === bare(url);
}

/** Who wrote it: a channel or an anonymous admin speaks as `sender_chat`, everyone else as `from`. */
function authorOf(message: TelegramMessage) {
  const chat = message.sender_chat ?? (message.from ? null : message.chat);
  if (chat) {
    return {
      authorId: String(chat.id),
      authorUsername: chat.username ?? chat.title ?? String(chat.id),
      authorDisplayName: chat.title ?? chat.username ?? null,
    };
  }
  const from = message.from as NonNullable<TelegramMessage["from"]>;
  const displayName = [from.first_name, from.last_name].filter(Boolean).join(" ");
  return {
    authorId: String(from.id),
    authorUsername: from.username ?? from.first_name,
    authorDisplayName: displayName || null,
  };
}

/** The largest size of a photo, named by its file id (see TELEGRAM_FILE_PREFIX). */
function mediaOf(message: TelegramMessage): PostMedia[] {
  if (!message.photo?.length) return [];
  const largest = message.photo.reduce((best, size) =>
    size.width * size.height > best.width * best.height ? size : best,
  );
  return [{ url: `${TELEGRAM_FILE_PREFIX}${largest.file_id}`, type: "image", alt: null }];
}

/**
 * A message's address: only a public chat (one with a username) has a link anyone can open. A private group's
 * message gets none rather than a link that fails for every reader outside it.
 */
export function telegramMessageUrl(chat: { username?: string }, messageId: number): string {
  return chat.username ? `https://t.me/${chat.username}/${messageId}` : "";
}

/** At most `max` UTF-16 units, never half of a character (a lone surrogate no database column takes). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return text.slice(0, end);
}

export const telegramPostId = (chatId: number, messageId: number) => `${chatId}:${messageId}`;

function toPost(message: TelegramMessage, repliedTo: SocialPost | null): SocialPost {
  const text = message.text ?? message.caption ?? "";
  const entities = message.text !== undefined ? message.entities : message.caption_entities;
  // In a forum, a message that replies to nothing still points at its topic's opening service message.
  const reply =
    message.reply_to_message && message.reply_to_message.forum_topic_created === undefined
      ? message.reply_to_message
      : undefined;
  return {
    platform: "telegram",
    id: telegramPostId(message.chat.id, message.message_id),
    text: applyEntities(cut(text, MAX_TEXT), entities),
    ...authorOf(message),
    authorProfileImage: null,
    media: mediaOf(message),
    url: telegramMessageUrl(message.chat, message.message_id),
    createdAt: new Date(message.date * 1000),
    inReplyToId: reply ? telegramPostId(reply.chat.id, reply.message_id) : null,
    repliedTo: reply ? repliedTo : null,
  };
}

/**
 * One update as a post: a group message or a channel post, with the message it replies to. Null when the update is
 * not one of those, or is malformed (the caller logs and skips it).
 */
export function postFromUpdate(update: unknown): SocialPost | null {
  if (!update || typeof update !== "object") return null;
  const raw =
    (update as { message?: unknown }).message ?? (update as { channel_post?: unknown }).channel_post;
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return null;
  const message = parsed.data;
  if (!message.from && !message.sender_chat && message.chat.type !== "channel") return null;
  const parent = message.reply_to_message;
  const parentAuthored = parent && (parent.from || parent.sender_chat || parent.chat.type === "channel");
  const repliedTo = parent && parentAuthored ? toPost(parent, null) : null;
  return toPost(message, repliedTo);
}

/** The update's id when it has a usable one; an update without it cannot even be stepped past. */
export function updateIdOf(update: unknown): number | null {
  const id = (update as { update_id?: unknown } | null)?.update_id;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : null;
}

/**
 * Reads updates into posts, oldest update first; malformed ones and ones that are not messages are skipped (logged
 * when malformed). Returns the offset that confirms every update read.
 */
export function postsFromUpdates(
  updates: readonly unknown[],
  logger?: Logger,
): { posts: SocialPost[]; nextOffset: number | null } {
  const posts: SocialPost[] = [];
  let last: number | null = null;
  const ordered = updates
    .map((update) => ({ update, id: updateIdOf(update) }))
    .sort((a, b) => (a.id ?? -1) - (b.id ?? -1));
  for (const { update, id } of ordered) {
    if (id === null) {
      logger?.warn("telegram update without an update_id skipped");
      continue;
    }
    last = Math.max(last ?? id, id);
    const relevant = TELEGRAM_ALLOWED_UPDATES.some((kind) => kind in (update as object));
    if (!relevant) continue;
    const post = postFromUpdate(update);
    if (post) posts.push(post);
    else logger?.warn({ updateId: id }, "malformed telegram update skipped");
  }
  return { posts, nextOffset: last === null ? null : last + 1 };
}

export interface TelegramSourceOptions {
  api: Api;
  logger?: Logger;
  /** Set when the deployment is public: Telegram pushes updates there, and passes only keep the webhook set. */
  webhook?: { url: string; secret: string } | null;
}

/**
 * The bot's messages in groups and channels. Polling: one getUpdates call per pass (offset = the saved cursor,
 * timeout 0 so a pass never waits for news); the cursor is the next offset. Only one process may poll a bot at a
 * time (Telegram answers a second one 409), so passes are `exclusive`.
 */
export class TelegramMentionSource implements MentionSource {
  private readonly options: TelegramSourceOptions;
  readonly platform = "telegram";
  readonly mentionOptional = true;
  readonly exclusive = true;
  private username: string | null = null;
  private webhookSet = false;

  constructor(options: TelegramSourceOptions) {
    this.options = options;
  }

  /** The token's bot id: one cursor per bot, whatever its username becomes. */
  get key(): string {
    return `telegram:updates:${this.options.api.token.split(":")[0]}`;
  }

  /** The bot's username once getMe answered (every pass asks first); commands may name it. */
  get botHandle(): string {
    return this.username ?? "";
  }

  async identify(): Promise<string> {
    this.username ??= (await this.options.api.getMe()).username;
    return this.username;
  }

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    await this.identify();
    if (this.options.webhook) {
      await this.ensureWebhook(this.options.webhook);
      return { posts: [], cursor: null };
    }
    const offset = cursor && /^\d+$/.test(cursor) ? Number(cursor) : undefined;
    const updates: unknown[] = await this.options.api.getUpdates({
      offset,
      limit: TELEGRAM_UPDATES_PER_PASS,
      timeout: 0,
      allowed_updates: [...TELEGRAM_ALLOWED_UPDATES],
    });
    const { posts, nextOffset } = postsFromUpdates(updates, this.options.logger);
    return { posts, cursor: nextOffset === null ? null : String(nextOffset) };
  }

  /**
   * Points Telegram at this deployment's webhook with the current secret, once per process: setWebhook is idempotent,
   * and asking first would not reveal a changed secret.
   */
  private async ensureWebhook(webhook: { url: string; secret: string }) {
    if (this.webhookSet) return;
    await this.options.api.setWebhook(webhook.url, {
      secret_token: webhook.secret,
      allowed_updates: [...TELEGRAM_ALLOWED_UPDATES],
    });
    this.options.logger?.info({ url: webhook.url }, "telegram webhook set");
    this.webhookSet = true;
  }
}
