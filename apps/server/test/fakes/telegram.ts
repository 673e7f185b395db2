import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Telegram Bot API (`POST {root}/bot{token}/{method}`): sendMessage to the chats it knows, answering as
 * Telegram does (`{ ok, result }` or `{ ok: false, error_code, description, parameters }`). It parses the text as
 * the Bot API would for HTML and MarkdownV2 — unknown tags, unescaped reserved characters and texts over 4096
 * visible characters are refused as Telegram refuses them — so a test sees what a reader would see. editMessageText
 * edits the bot's own messages (refusing an unknown message and an unchanged text, as Telegram does).
 *
 * For intake it is also the bot's inbox: getMe, getUpdates (an offset confirms and forgets every earlier update;
 * `limit`, `allowed_updates`; a sendMessage's `reply_parameters` must name a message sent into that chat unless
 * `allow_sending_without_reply`; a getUpdates that overlaps another ends the older one with 409 Conflict, and none is
 * allowed while a webhook is set) and setWebhook / deleteWebhook / getWebhookInfo. Tests post messages into groups
 * and channels through `send`.
 */

export interface SentMessage {
  token: string;
  /** Where it is: the chat's id and the message's id, as the answer gave them. */
  chatId: number;
  messageId: number;
  // biome-ignore lint/suspicious/noExplicitAny: the Bot API's parameters, checked by assertion
  payload: any;
  /** The text as the reader sees it, once entities are parsed. */
  visible: string;
}

class EntityError extends Error {}

const HTML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
const HTML_TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "a",
  "code",
  "pre",
  "tg-spoiler",
]);

function parseHtml(text: string): string {
  let visible = "";
  const open: string[] = [];
  for (let i = 0; i < text.length; ) {
    const char = text[i];
    if (char === "<") {
      const end = text.indexOf(">", i);
      if (end === -1) throw new EntityError(`Unclosed start tag at byte offset ${i}`);
      const tag = text.slice(i + 1, end);
      const closing = tag.startsWith("/");
      const name = (closing ? tag.slice(1) : tag).split(/\s/)[0].toLowerCase();
      if (!HTML_TAGS.has(name)) throw new EntityError(`Unsupported start tag "${name}" at byte offset ${i}`);
      if (closing) {
        if (open.pop() !== name)
          throw new EntityError(`Unmatched end tag at byte offset ${i}, expected "</${name}>"`);
      } else open.push(name);
      i = end + 1;
    } else if (char === "&") {
      const end = text.indexOf(";", i);
      const name = end === -1 ? "" : text.slice(i + 1, end);
      if (HTML_ENTITIES[name]) visible += HTML_ENTITIES[name];
      else if (/^#\d+$/.test(name)) visible += String.fromCodePoint(Number(name.slice(1)));
      else throw new EntityError(`Unsupported entity at byte offset ${i}`);
      i = end + 1;
    } else if (char === ">") {
      throw new EntityError(`Unexpected end tag at byte offset ${i}`);
    } else {
      visible += char;
      i++;
    }
  }
  if (open.length) throw new EntityError(`Can't find end tag corresponding to start tag "${open.at(-1)}"`);
  return visible;
}

const MARKDOWN_RESERVED = new Set("_*[]()~`>#+-=|{}.!");

function parseMarkdownV2(text: string): string {
  let visible = "";
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") {
      const next = text[i + 1];
      if (next === undefined || next.charCodeAt(0) > 126)
        throw new EntityError(`Bad escape at byte offset ${i}`);
      visible += next;
      i++;
    } else if (char === "*" || char === "_") {
      if (open.at(-1) === char) open.pop();
      else open.push(char);
    } else if (MARKDOWN_RESERVED.has(char)) {
      throw new EntityError(`Character '${char}' is reserved and must be escaped with the preceding '\\'`);
    } else visible += char;
  }
  if (open.length)
    throw new EntityError(`Can't find end of ${open.at(-1) === "*" ? "Bold" : "Italic"} entity`);
  return visible;
}

/** A replied-to message comes without its own reply, as Telegram nests only one level. */
function withoutReply(message: Record<string, unknown>) {
  const { reply_to_message: _nested, ...rest } = message;
  return rest;
}

const fail = (status: number, description: string, parameters?: Record<string, unknown>): FakeAnswer => ({
  status,
  body: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) },
});

export interface FakeTelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
}

export interface FakeTelegramChat {
  id: number;
  type: "group" | "supergroup" | "channel" | "private";
  title?: string;
  username?: string;
  is_forum?: boolean;
}

/** What a test posts: the Bot API's own message fields. */
export interface FakeMessageInput {
  text?: string;
  caption?: string;
  entities?: unknown[];
  caption_entities?: unknown[];
  photo?: Array<{
    file_id: string;
    file_unique_id: string;
    width: number;
    height: number;
    file_size?: number;
  }>;
  /** The message this one replies to (as `send` returned it). */
  replyTo?: Record<string, unknown>;
  /** Speaks as this chat (a channel, or an anonymous admin as the group) instead of a user. */
  senderChat?: FakeTelegramChat;
}

export async function startFakeTelegram(options: { token: string; chats?: string[]; botUsername?: string }) {
  const sent: SentMessage[] = [];
  const deleted: SentMessage[] = [];
  const queue = answerQueue();
  const chats = new Map<string, { id: number; type: string; title?: string; username?: string }>();
  /** Messages people sent into chats, by `{chat.id}/{message_id}`: what a reply_parameters may answer. */
  const incoming = new Map<string, unknown>();
  let nextChat = 1001234567000;
  const addChat = (chat: string) => {
    if (chat.startsWith("@")) {
      chats.set(chat, { id: -nextChat++, type: "channel", title: chat.slice(1), username: chat.slice(1) });
    } else {
      const id = Number(chat);
      chats.set(chat, { id, type: id < 0 ? "supergroup" : "private", title: `Chat ${chat}` });
    }
  };
  for (const chat of options.chats ?? []) addChat(chat);
  let nextMessage = 100;
  /** Messages the bot sent, by `{chat.id}/{message_id}`, as they read now (after edits). */
  const messages = new Map<
    string,
    { chat: { id: number; username?: string }; text: string; payload: unknown }
  >();
  const edited: SentMessage[] = [];

  /** editMessageText: the bot's own message, by chat (id or @username) and message id; an unchanged text is refused. */
  // biome-ignore lint/suspicious/noExplicitAny: the Bot API's parameters
  const editMessage = (token: string, payload: any): FakeAnswer => {
    const chat =
      chats.get(String(payload.chat_id)) ?? [...chats.values()].find((c) => c.id === Number(payload.chat_id));
    if (!chat) return fail(400, "Bad Request: chat not found");
    const key = `${chat.id}/${payload.message_id}`;
    const message = messages.get(key);
    if (!message) return fail(400, "Bad Request: message to edit not found");
    if (typeof payload.text !== "string" || payload.text === "")
      return fail(400, "Bad Request: message text is empty");
    let visible: string;
    try {
      visible =
        payload.parse_mode === "HTML"
          ? parseHtml(payload.text)
          : payload.parse_mode === "MarkdownV2"
            ? parseMarkdownV2(payload.text)
            : payload.text;
    } catch (error) {
      if (!(error instanceof EntityError)) throw error;
      return fail(400, `Bad Request: can't parse entities: ${error.message}`);
    }
    if (visible === message.text) {
      return fail(
        400,
        "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }
    message.text = visible;
    edited.push({ token, payload, visible, chatId: message.chat.id, messageId: Number(payload.message_id) });
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: payload.message_id,
          date: Math.floor(Date.now() / 1000),
          edit_date: Math.floor(Date.now() / 1000),
          chat,
          text: visible,
        },
      },
    };
  };

  // --- The bot's inbox: updates, pollers, the webhook. ---
  const botId = Number(options.token.split(":")[0]) || 7000000001;
  const botUsername = options.botUsername ?? "curate_intake_bot";
  /** Updates not yet confirmed by an offset, oldest first. */
  const inbox: Array<Record<string, unknown>> = [];
  let nextUpdateId = 600_000_000;
  let nextUser = 500_000;
  let nextIncomingMessage = 1;
  let webhook: { url: string; secret_token?: string; allowed_updates?: string[] } | null = null;
  let activePoll: { conflicted: boolean } | null = null;
  let heldPoll: Promise<void> | null = null;
  let conflicts = 0;

  const getUpdates = async (payload: Record<string, unknown>): Promise<FakeAnswer> => {
    if (webhook) {
      return fail(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    const limit = payload.limit === undefined ? 100 : Number(payload.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return fail(400, "Bad Request: limit must be between 1 and 100");
    // An offset confirms every update before it: Telegram forgets them for good.
    if (typeof payload.offset === "number" && payload.offset > 0) {
      while (inbox.length && Number(inbox[0].update_id) < payload.offset) inbox.shift();
    }
    const mine = { conflicted: false };
    if (activePoll) {
      activePoll.conflicted = true;
      conflicts++;
    }
    activePoll = mine;
    if (heldPoll) {
      const held = heldPoll;
      heldPoll = null;
      await held;
    }
    if (activePoll === mine) activePoll = null;
    if (mine.conflicted) {
      return fail(
        409,
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      );
    }
    const allowed = Array.isArray(payload.allowed_updates) ? (payload.allowed_updates as string[]) : [];
    const wanted = inbox.filter(
      (update) => allowed.length === 0 || Object.keys(update).some((key) => allowed.includes(key)),
    );
    return { status: 200, body: { ok: true, result: wanted.slice(0, limit) } };
  };

  const inboxMethod = async (
    method: string,
    payload: Record<string, unknown>,
  ): Promise<FakeAnswer | null> => {
    switch (method) {
      case "getMe":
        return {
          status: 200,
          body: {
            ok: true,
            result: {
              id: botId,
              is_bot: true,
              first_name: "Curate",
              username: botUsername,
              can_join_groups: true,
              can_read_all_group_messages: true,
              supports_inline_queries: false,
            },
          },
        };
      case "getUpdates":
        return getUpdates(payload);
      case "setWebhook":
        if (typeof payload.url !== "string" || !payload.url.startsWith("https://"))
          return fail(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook");
        if (payload.secret_token !== undefined && !/^[\w-]{1,256}$/.test(String(payload.secret_token)))
          return fail(400, "Bad Request: secret token contains unallowed characters");
        webhook = {
          url: payload.url,
          secret_token: payload.secret_token as string | undefined,
          allowed_updates: payload.allowed_updates as string[] | undefined,
        };
        return { status: 200, body: { ok: true, result: true, description: "Webhook was set" } };
      case "deleteWebhook":
        webhook = null;
        return { status: 200, body: { ok: true, result: true, description: "Webhook was deleted" } };
      case "getWebhookInfo":
        return {
          status: 200,
          body: {
            ok: true,
            result: {
              url: webhook?.url ?? "",
              has_custom_certificate: false,
              pending_update_count: inbox.length,
              ...(webhook?.allowed_updates ? { allowed_updates: webhook.allowed_updates } : {}),
            },
          },
        };
      default:
        return null;
    }
  };

  const handle = async (request: ReceivedRequest): Promise<FakeAnswer> => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.path);
    if (request.method !== "POST" || !match) return fail(404, "Not Found");
    const [, token, method] = match;
    if (token !== options.token) return fail(401, "Unauthorized");
    const queued = queue.next();
    if (queued) return queued;
    const inboxAnswer = await inboxMethod(method, request.body ?? {});
    if (inboxAnswer) return inboxAnswer;
    if (method === "editMessageText") return editMessage(token, request.body ?? {});
    if (method === "deleteMessage") return deleteMessage(request.body ?? {});
    if (method !== "sendMessage") return fail(404, "Not Found: method not found");
    const payload = request.body ?? {};
    const chat = chats.get(String(payload.chat_id));
    if (!chat) return fail(400, "Bad Request: chat not found");
    if (typeof payload.text !== "string" || payload.text === "")
      return fail(400, "Bad Request: message text is empty");
    let visible: string;
    try {
      visible =
        payload.parse_mode === "HTML"
          ? parseHtml(payload.text)
          : payload.parse_mode === "MarkdownV2"
            ? parseMarkdownV2(payload.text)
            : payload.text;
    } catch (error) {
      if (!(error instanceof EntityError)) throw error;
      return fail(400, `Bad Request: can't parse entities: ${error.message}`);
    }
    if (visible.length > 4096) return fail(400, "Bad Request: message is too long");
    const replyTo = payload.reply_parameters?.message_id;
    const repliedTo = replyTo === undefined ? undefined : incoming.get(`${chat.id}/${replyTo}`);
    if (replyTo !== undefined && !repliedTo && !payload.reply_parameters.allow_sending_without_reply) {
      return fail(400, "Bad Request: message to be replied not found");
    }
    const messageId = nextMessage++;
    sent.push({ token, payload, visible, chatId: chat.id, messageId });
    messages.set(`${chat.id}/${messageId}`, { chat, text: visible, payload });
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: messageId,
          date: Math.floor(Date.now() / 1000),
          chat,
          ...(payload.message_thread_id
            ? { message_thread_id: payload.message_thread_id, is_topic_message: true }
            : {}),
          ...(repliedTo ? { reply_to_message: repliedTo } : {}),
          text: visible,
        },
      },
    };
  };

  /**
   * deleteMessage `{ chat_id, message_id }`: `{ ok: true, result: true }` for a message the bot sent and has not
   * deleted yet; Telegram's 400 "message to delete not found" otherwise.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the Bot API's parameters
  const deleteMessage = (payload: any): FakeAnswer => {
    const chat = [...chats.entries()].find(
      ([name, known]) => String(known.id) === String(payload.chat_id) || name === String(payload.chat_id),
    )?.[1];
    if (!chat) return fail(400, "Bad Request: chat not found");
    const index = sent.findIndex(
      (message) => message.chatId === chat.id && message.messageId === Number(payload.message_id),
    );
    if (index === -1) return fail(400, "Bad Request: message to delete not found");
    deleted.push(...sent.splice(index, 1));
    return { status: 200, body: { ok: true, result: true } };
  };

  const pushUpdate = (update: Record<string, unknown>) => {
    const full = { update_id: nextUpdateId++, ...update };
    inbox.push(full);
    return full;
  };

  const server = await startFakeServer(handle);
  return {
    botUsername,
    /** A person who can write in the chats. */
    user(username: string | null, firstName = username ?? "Someone", lastName?: string): FakeTelegramUser {
      return {
        id: nextUser++,
        is_bot: false,
        first_name: firstName,
        ...(lastName ? { last_name: lastName } : {}),
        ...(username ? { username } : {}),
      };
    },
    /** A group (public when it has a username) or a channel the bot reads; sendMessage reaches it by id too. */
    chat(input: Omit<FakeTelegramChat, "id">): FakeTelegramChat {
      const chat = { id: -nextChat++, ...input };
      chats.set(String(chat.id), chat);
      return chat;
    },
    /**
     * A message in a chat, as Telegram would deliver it: a `message` update in a group, `channel_post` in a
     * channel. Returns the message (for replies) and its update (for a webhook delivery).
     */
    send(chat: FakeTelegramChat, author: FakeTelegramUser | null, input: FakeMessageInput) {
      const { replyTo, senderChat, ...fields } = input;
      const message: Record<string, unknown> = {
        message_id: nextIncomingMessage++,
        ...(author ? { from: author } : {}),
        ...(senderChat ? { sender_chat: senderChat } : {}),
        chat,
        date: Math.floor(Date.now() / 1000),
        ...(replyTo ? { reply_to_message: withoutReply(replyTo) } : {}),
        ...fields,
      };
      incoming.set(`${chat.id}/${message.message_id}`, withoutReply(message));
      const update = pushUpdate(chat.type === "channel" ? { channel_post: message } : { message });
      return { message, update };
    },
    /** Any update, as given (an update_id is added unless `update_id` is a key of it). */
    rawUpdate(update: Record<string, unknown>) {
      if ("update_id" in update) {
        inbox.push(update);
        return update;
      }
      return pushUpdate(update);
    },
    /** Updates Telegram still holds (not yet confirmed by an offset). */
    pendingUpdates: () => inbox.length,
    /** How many getUpdates calls ended in 409 because another overlapped them. */
    conflicts: () => conflicts,
    /** The next getUpdates waits until the returned function is called. */
    holdNextPoll() {
      let release!: () => void;
      heldPoll = new Promise<void>((resolve) => {
        release = resolve;
      });
      return release;
    },
    webhook: () => webhook,
    apiRoot: server.url,
    requests: server.requests,
    /** Messages in their chats (a deleted one leaves this list for `deleted`). */
    sent,
    /** editMessageText calls that changed a message. */
    edited,
    /** A message's text as a reader sees it now, by `{chat.id}/{message_id}`. */
    messageText: (key: string) => messages.get(key)?.text,
    deleted,
    addChat,
    /** The next request gets this Bot API error instead. */
    failNext(status: number, description: string, parameters?: Record<string, unknown>) {
      queue.push(fail(status, description, parameters));
    },
    /** The next request is never answered. */
    hangNext() {
      queue.push({ hang: true });
    },
    reset() {
      inbox.length = 0;
      webhook = null;
      sent.length = 0;
      edited.length = 0;
      messages.clear();
      deleted.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
