import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Discord REST API (`{base}/v10/…`): execute-webhook (`POST /webhooks/{id}/{token}?wait=true`) and
 * create-message (`POST /channels/{id}/messages` with `Authorization: Bot …`). It checks bodies against Discord's
 * limits and answers as Discord does: the message object, or `{ code, message, errors }` with 400/401/403/404, and
 * `{ message, retry_after, global }` with 429. Bot messages with an enforced nonce are kept once.
 */

export interface PostedMessage {
  via: "webhook" | "bot";
  channelId: string;
  threadId?: string;
  // biome-ignore lint/suspicious/noExplicitAny: Discord's message body, checked by assertion
  body: any;
  id: string;
}

const error = (status: number, code: number, message: string, errors?: unknown): FakeAnswer => ({
  status,
  body: { code, message, ...(errors ? { errors } : {}) },
});

interface FakeEmbed {
  title?: string;
  description?: string;
  author?: { name?: string };
  footer?: { text?: string };
  fields?: Array<{ name: string; value: string }>;
}

const tooLong = (max: number) => ({
  _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${max} or fewer in length.` }],
});

/** Discord's form errors for a message body, nested by path as Discord nests them. */
// biome-ignore lint/suspicious/noExplicitAny: an arbitrary JSON body
function formErrors(body: any): Record<string, unknown> | null {
  const errors: Record<string, unknown> = {};
  if (typeof body.content === "string" && body.content.length > 2000) errors.content = tooLong(2000);
  const embeds = Array.isArray(body.embeds) ? body.embeds : [];
  if (embeds.length > 10) errors.embeds = tooLong(10);
  embeds.forEach((embed: FakeEmbed, i: number) => {
    const own: Record<string, unknown> = {};
    if ((embed.title ?? "").length > 256) own.title = tooLong(256);
    if ((embed.description ?? "").length > 4096) own.description = tooLong(4096);
    if ((embed.author?.name ?? "").length > 256) own.author = { name: tooLong(256) };
    const fields = embed.fields ?? [];
    if (fields.length > 25) own.fields = tooLong(25);
    fields.forEach((field: { name: string; value: string }, j: number) => {
      if (field.name.length > 256 || field.value.length > 1024) {
        own.fields = {
          ...(own.fields as object),
          [j]: field.name.length > 256 ? { name: tooLong(256) } : { value: tooLong(1024) },
        };
      }
    });
    const total =
      (embed.title ?? "").length +
      (embed.description ?? "").length +
      (embed.author?.name ?? "").length +
      (embed.footer?.text ?? "").length +
      fields.reduce(
        (sum: number, f: { name: string; value: string }) => sum + f.name.length + f.value.length,
        0,
      );
    if (total > 6000)
      own._errors = [{ code: "MAX_EMBED_SIZE_EXCEEDED", message: "Embed size exceeds maximum size of 6000" }];
    if (Object.keys(own).length) errors.embeds = { ...(errors.embeds as object), [i]: own };
  });
  if (typeof body.nonce === "string" && body.nonce.length > 25) errors.nonce = tooLong(25);
  return Object.keys(errors).length ? errors : null;
}

export async function startFakeDiscord(options: {
  webhooks?: Array<{ id: string; token: string; channelId: string }>;
  botToken?: string;
  /** Channels the bot can post in; others answer Unknown Channel. */
  channels?: string[];
  /** Channels the bot can see but not post in. */
  readOnlyChannels?: string[];
  /** Threads of the webhooks' channels. */
  threads?: string[];
  guildId?: string;
}) {
  const posted: PostedMessage[] = [];
  const deleted: PostedMessage[] = [];
  const queue = answerQueue();
  const nonces = new Map<string, Record<string, unknown>>();
  let nextId = 1300000000000000000n;
  // biome-ignore lint/suspicious/noExplicitAny: Discord's message objects, as the fake keeps them
  const messages = new Map<string, any>();
  const edits: PostedMessage[] = [];

  const create = (
    via: PostedMessage["via"],
    channelId: string,
    request: ReceivedRequest,
    threadId?: string,
  ): FakeAnswer => {
    const body = request.body ?? {};
    const errors = formErrors(body);
    if (errors) return error(400, 50035, "Invalid Form Body", errors);
    if (!body.content && !(body.embeds ?? []).length)
      return error(400, 50006, "Cannot send an empty message");
    if (via === "bot" && body.enforce_nonce && nonces.has(body.nonce)) {
      return { status: 200, body: nonces.get(body.nonce) };
    }
    const id = String(nextId++);
    const message = {
      id,
      type: 0,
      channel_id: threadId ?? channelId,
      ...(options.guildId ? { guild_id: options.guildId } : {}),
      content: body.content ?? "",
      embeds: body.embeds ?? [],
      author: { id: "1100000000000000001", username: body.username ?? "Curate", bot: true },
      timestamp: new Date().toISOString(),
      ...(via === "webhook" ? { webhook_id: request.path.split("/")[4] } : {}),
      ...(body.nonce ? { nonce: body.nonce } : {}),
    };
    if (via === "bot" && body.enforce_nonce) nonces.set(body.nonce, message);
    posted.push({ via, channelId, threadId, body, id });
    messages.set(id, message);
    return { status: 200, body: message };
  };

  /** Edit (webhook or bot message): the message must be this webhook's or bot's, in that channel. */
  const edit = (
    via: PostedMessage["via"],
    channelId: string,
    messageId: string,
    request: ReceivedRequest,
  ) => {
    const message = messages.get(messageId);
    const owner = via === "webhook" ? request.path.split("/")[4] : undefined;
    if (!message || (via === "webhook" ? message.webhook_id !== owner : message.channel_id !== channelId)) {
      return error(404, 10008, "Unknown Message");
    }
    const body = request.body ?? {};
    const errors = formErrors(body);
    if (errors) return error(400, 50035, "Invalid Form Body", errors);
    if ("content" in body) message.content = body.content ?? "";
    if ("embeds" in body) message.embeds = body.embeds ?? [];
    message.edited_timestamp = new Date().toISOString();
    edits.push({ via, channelId, body, id: messageId });
    return { status: 200, body: message } as FakeAnswer;
  };

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const queued = queue.next();
    if (queued) return queued;
    const webhook = /^\/api\/v10\/webhooks\/(\d+)\/([\w-]+)$/.exec(request.path);
    if (request.method === "POST" && webhook) {
      const known = (options.webhooks ?? []).find((w) => w.id === webhook[1]);
      if (!known) return error(404, 10015, "Unknown Webhook");
      if (known.token !== webhook[2]) return error(401, 50027, "Invalid Webhook Token");
      if (request.query.get("wait") !== "true") {
        create("webhook", known.channelId, request);
        return { status: 204 };
      }
      const thread = request.query.get("thread_id") ?? undefined;
      if (thread && !(options.threads ?? []).includes(thread)) return error(404, 10003, "Unknown Channel");
      return create("webhook", known.channelId, request, thread);
    }
    const webhookEdit = /^\/api\/v10\/webhooks\/(\d+)\/([\w-]+)\/messages\/(\d+)$/.exec(request.path);
    if (request.method === "PATCH" && webhookEdit) {
      const known = (options.webhooks ?? []).find((w) => w.id === webhookEdit[1]);
      if (!known) return error(404, 10015, "Unknown Webhook");
      if (known.token !== webhookEdit[2]) return error(401, 50027, "Invalid Webhook Token");
      return edit("webhook", known.channelId, webhookEdit[3], request);
    }
    const botEdit = /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)$/.exec(request.path);
    if (request.method === "PATCH" && botEdit) {
      if (request.headers.authorization !== `Bot ${options.botToken}`)
        return error(401, 0, "401: Unauthorized");
      return edit("bot", botEdit[1], botEdit[2], request);
    }
    const channel = /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(request.path);
    if (request.method === "POST" && channel) {
      if (request.headers.authorization !== `Bot ${options.botToken}`)
        return error(401, 0, "401: Unauthorized");
      if ((options.readOnlyChannels ?? []).includes(channel[1]))
        return error(403, 50013, "Missing Permissions");
      if (!(options.channels ?? []).includes(channel[1])) return error(404, 10003, "Unknown Channel");
      return create("bot", channel[1], request);
    }
    // Delete Webhook Message and Delete Message: 204, or Unknown Message (10008) for one that is not there.
    const removal =
      /^\/api\/v10\/webhooks\/(\d+)\/([\w-]+)\/messages\/(\d+)$/.exec(request.path) ??
      /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)$/.exec(request.path);
    if (request.method === "DELETE" && removal) {
      const viaWebhook = request.path.includes("/webhooks/");
      let messageId: string;
      let owned: (message: PostedMessage) => boolean;
      if (viaWebhook) {
        const known = (options.webhooks ?? []).find((w) => w.id === removal[1]);
        if (!known) return error(404, 10015, "Unknown Webhook");
        if (known.token !== removal[2]) return error(401, 50027, "Invalid Webhook Token");
        messageId = removal[3];
        const thread = request.query.get("thread_id") ?? undefined;
        owned = (message) =>
          message.via === "webhook" && message.channelId === known.channelId && message.threadId === thread;
      } else {
        if (request.headers.authorization !== `Bot ${options.botToken}`)
          return error(401, 0, "401: Unauthorized");
        messageId = removal[2];
        owned = (message) => message.channelId === removal[1] || message.threadId === removal[1];
      }
      const index = posted.findIndex((message) => message.id === messageId && owned(message));
      if (index === -1) return error(404, 10008, "Unknown Message");
      deleted.push(...posted.splice(index, 1));
      return { status: 204 };
    }
    return error(404, 0, "404: Not Found");
  };

  const server = await startFakeServer(handle);
  return {
    apiBaseUrl: `${server.url}/api`,
    requests: server.requests,
    /** Messages in their channels (a deleted one leaves this list for `deleted`). */
    posted,
    /** Edits of posted messages (edit webhook message, edit message). */
    edits,
    /** A posted message as it reads now. */
    message: (id: string) => messages.get(id),
    deleted,
    /** The next request is rate limited for `seconds` (the body's float and the header's whole seconds). */
    rateLimitNext(seconds: number) {
      queue.push({
        status: 429,
        headers: { "Retry-After": String(Math.ceil(seconds)), "X-RateLimit-Scope": "user" },
        body: { message: "You are being rate limited.", retry_after: seconds, global: false },
      });
    },
    answerNext(answer: FakeAnswer) {
      queue.push(answer);
    },
    reset() {
      posted.length = 0;
      edits.length = 0;
      messages.clear();
      deleted.length = 0;
      server.requests.length = 0;
      queue.clear();
      nonces.clear();
    },
    close: server.close,
  };
}
