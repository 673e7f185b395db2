import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Telegram Bot API (`POST {root}/bot{token}/{method}`): sendMessage to the chats it knows, answering as
 * Telegram does (`{ ok, result }` or `{ ok: false, error_code, description, parameters }`). It parses the text as
 * the Bot API would for HTML and MarkdownV2 — unknown tags, unescaped reserved characters and texts over 4096
 * visible characters are refused as Telegram refuses them — so a test sees what a reader would see.
 */

export interface SentMessage {
  token: string;
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

const fail = (status: number, description: string, parameters?: Record<string, unknown>): FakeAnswer => ({
  status,
  body: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) },
});

export async function startFakeTelegram(options: { token: string; chats?: string[] }) {
  const sent: SentMessage[] = [];
  const queue = answerQueue();
  const chats = new Map<string, { id: number; type: string; title?: string; username?: string }>();
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

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.path);
    if (request.method !== "POST" || !match) return fail(404, "Not Found");
    const [, token, method] = match;
    if (token !== options.token) return fail(401, "Unauthorized");
    const queued = queue.next();
    if (queued) return queued;
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
    sent.push({ token, payload, visible });
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: nextMessage++,
          date: Math.floor(Date.now() / 1000),
          chat,
          ...(payload.message_thread_id
            ? { message_thread_id: payload.message_thread_id, is_topic_message: true }
            : {}),
          text: visible,
        },
      },
    };
  };

  const server = await startFakeServer(handle);
  return {
    apiRoot: server.url,
    requests: server.requests,
    sent,
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
      sent.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
