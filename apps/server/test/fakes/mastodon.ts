import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Mastodon instance's REST API, as intake reads it: verify_credentials, the bot's notifications (newest
 * first; `types[]`, `limit` up to 80, `max_id` / `since_id` / `min_id`, and the Link header Mastodon pages with),
 * statuses by id (404 for what the token may not see), hashtag timelines. Statuses are rendered to HTML as Mastodon
 * renders them: paragraphs, `<br />`, links shortened with invisible spans, mentions as h-cards showing the bare
 * username, hashtags as links; `mentions` lists who is mentioned with `acct` bare for the instance's own accounts.
 * Errors are `{ "error": … }`; a 429 carries X-RateLimit-* with an ISO 8601 reset time, as Mastodon sends them.
 * The bot also posts: `GET /api/v2/search?resolve=true` finds a status by its URI, and `POST /api/v1/statuses`
 * (`status`, `in_reply_to_id`, `visibility`) posts as the bot, one status per Idempotency-Key as Mastodon keeps it.
 */

export interface FakeAccount {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  url: string;
  avatar: string;
  avatar_static: string;
  locked: boolean;
  bot: boolean;
  created_at: string;
}

export interface PostInput {
  /** The author: `user` on this instance, or `user@domain` elsewhere. */
  by: string;
  /** What the author typed: blank lines part paragraphs, `@user` / `@user@domain` mention, `#tag` tags. */
  text: string;
  inReplyTo?: string;
  visibility?: "public" | "unlisted" | "private" | "direct";
  spoiler?: string;
  media?: Array<{ type: "image" | "gifv" | "video" | "audio"; description?: string | null }>;
}

// biome-ignore lint/suspicious/noExplicitAny: Mastodon entities as JSON, checked by assertion in tests
type Json = Record<string, any>;

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const error = (status: number, message: string, headers?: Record<string, string>): FakeAnswer => ({
  status,
  body: { error: message },
  headers,
});

export async function startFakeMastodon(options: {
  accessToken: string;
  botUsername: string;
  /** The instance's LOCAL_DOMAIN: its accounts' handles end in it, its statuses' URIs start with it. */
  domain: string;
}) {
  const { domain } = options;
  const accounts = new Map<string, FakeAccount>();
  const statuses = new Map<string, Json>();
  // Each entry's place in its list, kept apart from its JSON so a test can make an entry's own `id` malformed.
  const notifications: Array<{ seq: bigint; body: Json }> = [];
  const queue = answerQueue();
  const pathFailures: Array<{ path: string; answer: FakeAnswer }> = [];
  let nextAccount = 109_000_000_000_000_000n;
  // Snowflake-like ids that grow with time, as Mastodon's do.
  let nextId = 113_500_000_000_000_000n;
  const newId = () => String(nextId++ * 1000n);
  let nextNotification = 34_975_000n;
  let clock = Date.parse("2026-11-20T09:00:00.000Z");

  const account = (handle: string, displayName?: string): FakeAccount => {
    const [username, host] = handle.replace(/^@/, "").split("@");
    const acct = host && host !== domain ? `${username}@${host}` : username;
    let found = accounts.get(acct.toLowerCase());
    if (!found) {
      found = {
        id: String(nextAccount++),
        username,
        acct,
        display_name: displayName ?? username[0].toUpperCase() + username.slice(1),
        url: `https://${host ?? domain}/@${username}`,
        avatar: `https://files.${domain}/accounts/avatars/${username}.png`,
        avatar_static: `https://files.${domain}/accounts/avatars/${username}.png`,
        locked: false,
        bot: username === options.botUsername,
        created_at: "2024-01-01T00:00:00.000Z",
      };
      accounts.set(acct.toLowerCase(), found);
    }
    return found;
  };
  const bot = account(options.botUsername, "Curate bot");

  /** How Mastodon shows a link: scheme hidden, 30 characters shown (an ellipsis after when cut), the rest hidden. */
  const linkHtml = (url: string) => {
    const prefix = /^https?:\/\/(www\.)?/.exec(url)?.[0] ?? "";
    const rest = url.slice(prefix.length);
    const shown = rest.slice(0, 30);
    const cut = rest.length > 30;
    return (
      `<a href="${escapeHtml(url)}" target="_blank" rel="nofollow noopener" translate="no">` +
      `<span class="invisible">${escapeHtml(prefix)}</span><span class="${cut ? "ellipsis" : ""}">${escapeHtml(shown)}</span>` +
      `<span class="invisible">${escapeHtml(rest.slice(30))}</span></a>`
    );
  };

  const TOKEN = /(https?:\/\/[^\s<>"]+[^\s<>".,!?)])|(^|[^\w])@(\w+(?:@[\w.-]+\w)?)|(^|[^\w&])#(\w+)/gu;

  /** Renders typed text as Mastodon's HTML, with the mentions and tags it found. */
  const render = (text: string) => {
    const mentions: FakeAccount[] = [];
    const tags: string[] = [];
    const paragraph = (source: string) =>
      source
        .split("\n")
        .map((line) => {
          let html = "";
          let last = 0;
          for (const match of line.matchAll(TOKEN)) {
            const index = match.index ?? 0;
            const lead = match[2] ?? match[4] ?? "";
            html += escapeHtml(line.slice(last, index)) + escapeHtml(lead);
            if (match[1]) {
              html += linkHtml(match[1]);
            } else if (match[3]) {
              const mentioned = account(match[3]);
              if (!mentions.includes(mentioned)) mentions.push(mentioned);
              html += `<span class="h-card" translate="no"><a href="${mentioned.url}" class="u-url mention">@<span>${escapeHtml(mentioned.username)}</span></a></span>`;
            } else {
              const tag = match[5];
              tags.push(tag.toLowerCase());
              html += `<a href="https://${domain}/tags/${tag}" class="mention hashtag" rel="tag">#<span>${escapeHtml(tag)}</span></a>`;
            }
            last = index + match[0].length;
          }
          return html + escapeHtml(line.slice(last));
        })
        .join("<br />");
    const content = text
      .split(/\n{2,}/)
      .map((p) => `<p>${paragraph(p)}</p>`)
      .join("");
    return { content, mentions, tags: [...new Set(tags)] };
  };

  /** Posts a status; a status mentioning the bot notifies it, as Mastodon does. Returns the status entity. */
  const post = (input: PostInput): Json => {
    const author = account(input.by);
    const id = newId();
    const remote = author.acct.includes("@");
    const home = remote ? author.acct.split("@")[1] : domain;
    // A remote status keeps its own server's URI; the numeric id is this instance's.
    const ownId = remote ? String(BigInt(id) + 7n) : id;
    const { content, mentions, tags } = render(input.text);
    clock += 60_000;
    const status: Json = {
      id,
      created_at: new Date(clock).toISOString(),
      in_reply_to_id: input.inReplyTo ?? null,
      in_reply_to_account_id: input.inReplyTo ? (statuses.get(input.inReplyTo)?.account.id ?? null) : null,
      sensitive: Boolean(input.spoiler),
      spoiler_text: input.spoiler ?? "",
      visibility: input.visibility ?? "public",
      language: "en",
      uri: `https://${home}/users/${author.username}/statuses/${ownId}`,
      url: `https://${home}/@${author.username}/${ownId}`,
      replies_count: 0,
      reblogs_count: 0,
      favourites_count: 0,
      content,
      reblog: null,
      account: author,
      media_attachments: (input.media ?? []).map((media, index) => ({
        id: `${id}${index}`,
        type: media.type,
        url: `https://files.${domain}/media_attachments/${id}/${index}/original.${media.type === "image" ? "png" : "mp4"}`,
        preview_url: `https://files.${domain}/media_attachments/${id}/${index}/small.png`,
        remote_url: remote ? `https://${home}/media/${index}` : null,
        description: media.description ?? null,
        blurhash: "UeKUpFxuo~R%0nW;WCnhF6RjaJt757oJodS$",
      })),
      mentions: mentions.map((m) => ({ id: m.id, username: m.username, url: m.url, acct: m.acct })),
      tags: tags.map((name) => ({ name, url: `https://${domain}/tags/${name}` })),
      emojis: [],
      card: null,
      poll: null,
    };
    statuses.set(id, status);
    if (mentions.includes(bot) && author !== bot) {
      const seq = nextNotification++;
      notifications.push({
        seq,
        body: {
          id: String(seq),
          type: "mention",
          created_at: status.created_at,
          group_key: `ungrouped-${seq}`,
          account: author,
          status,
        },
      });
    }
    return status;
  };

  /** Someone followed the bot: a notification that is no mention. */
  const follow = (by: string) => {
    const seq = nextNotification++;
    notifications.push({
      seq,
      body: {
        id: String(seq),
        type: "follow",
        created_at: new Date(clock).toISOString(),
        group_key: `ungrouped-${seq}`,
        account: account(by),
      },
    });
  };

  /** A notification as the test writes it (a malformed one, say), in order with the others. */
  const rawNotification = (entry: Json) => {
    const seq = nextNotification++;
    notifications.push({ seq, body: { id: String(seq), ...entry } });
  };

  /** Mastodon's paging over a list, newest first, with its Link header. */
  const page = (request: ReceivedRequest, all: Array<{ seq: bigint; body: Json }>): FakeAnswer => {
    const limit = Math.min(Math.max(Number(request.query.get("limit") ?? 40) || 40, 1), 80);
    const bound = (name: string) => {
      const value = request.query.get(name);
      return value && /^\d+$/.test(value) ? BigInt(value) : null;
    };
    const maxId = bound("max_id");
    const sinceId = bound("since_id");
    const minId = bound("min_id");
    let list = all
      .filter(({ seq }) => (maxId === null || seq < maxId) && (sinceId === null || seq > sinceId))
      .filter(({ seq }) => minId === null || seq > minId)
      .sort((a, b) => (a.seq > b.seq ? -1 : a.seq < b.seq ? 1 : 0));
    // min_id asks for the entries right after it (the oldest newer ones); the page still reads newest first.
    list = minId !== null ? list.slice(-limit) : list.slice(0, limit);
    if (list.length === 0) return { status: 200, body: [] };
    const link = (param: string, seq: bigint) => {
      const url = new URL(request.path, `http://127.0.0.1:${server.port}`);
      for (const [name, value] of request.query) {
        if (!["max_id", "since_id", "min_id"].includes(name)) url.searchParams.append(name, value);
      }
      url.searchParams.set(param, String(seq));
      return url.href;
    };
    return {
      status: 200,
      body: list.map((entry) => entry.body),
      headers: {
        link: `<${link("max_id", list[list.length - 1].seq)}>; rel="next", <${link("min_id", list[0].seq)}>; rel="prev"`,
      },
    };
  };

  const visible = (status: Json | undefined) =>
    status && (status.visibility !== "direct" || status.mentions.some((m: Json) => m.id === bot.id));

  const handle = (request: ReceivedRequest): FakeAnswer => {
    if (request.headers.authorization !== `Bearer ${options.accessToken}`) {
      return error(401, "The access token is invalid");
    }
    const failure = pathFailures.findIndex((f) => f.path === request.path);
    if (failure !== -1) return pathFailures.splice(failure, 1)[0].answer;
    const queued = queue.next();
    if (queued) return queued;
    if (request.method === "POST" && request.path === "/api/v1/statuses") return postAsBot(request);
    if (request.method !== "GET") return error(404, "Not Found");
    if (request.path === "/api/v2/search") {
      const q = request.query.get("q") ?? "";
      const found = [...statuses.values()].filter((status) => status.uri === q && visible(status));
      return { status: 200, body: { accounts: [], statuses: found.slice(0, 1), hashtags: [] } };
    }
    if (request.path === "/api/v1/accounts/verify_credentials") {
      return { status: 200, body: { ...bot, source: { privacy: "public", note: "" } } };
    }
    if (request.path === "/api/v1/notifications") {
      const types = request.query.getAll("types[]");
      return page(
        request,
        notifications.filter((n) => types.length === 0 || types.includes(n.body.type)),
      );
    }
    const statusMatch = /^\/api\/v1\/statuses\/(\d+)$/.exec(request.path);
    if (statusMatch) {
      const status = statuses.get(statusMatch[1]);
      return visible(status) ? { status: 200, body: status } : error(404, "Record not found");
    }
    const tagMatch = /^\/api\/v1\/timelines\/tag\/([^/]+)$/.exec(request.path);
    if (tagMatch) {
      const tag = decodeURIComponent(tagMatch[1]).toLowerCase();
      const tagged = [...statuses.values()]
        .filter((s) => s.visibility === "public" && s.tags.some((t: Json) => t.name === tag))
        .map((body) => ({ seq: BigInt(body.id), body }));
      return page(request, tagged);
    }
    return error(404, "Not Found");
  };

  /** The bot's own statuses by Idempotency-Key: a repeated POST answers the status it already made. */
  const byIdempotencyKey = new Map<string, Json>();
  const botPosts: Json[] = [];
  const postAsBot = (request: ReceivedRequest): FakeAnswer => {
    const body = request.body ?? {};
    if (typeof body.status !== "string" || !body.status.trim()) {
      return error(422, "Validation failed: Text can't be blank");
    }
    if (body.in_reply_to_id !== undefined && !statuses.has(String(body.in_reply_to_id))) {
      return error(404, "Record not found");
    }
    const key = request.headers["idempotency-key"];
    const earlier = typeof key === "string" ? byIdempotencyKey.get(key) : undefined;
    if (earlier) return { status: 200, body: earlier };
    const status = post({
      by: bot.username,
      text: body.status,
      inReplyTo: body.in_reply_to_id ? String(body.in_reply_to_id) : undefined,
      visibility: body.visibility,
    });
    if (typeof key === "string") byIdempotencyKey.set(key, status);
    botPosts.push(status);
    return { status: 200, body: status };
  };

  const server = await startFakeServer(handle);
  return {
    url: server.url,
    requests: server.requests,
    bot,
    account,
    post,
    follow,
    rawNotification,
    /** The statuses the bot posted through the API, in order. */
    botPosts,
    /** The newest notification's id: what a pass that read everything saves as its cursor. */
    newestNotificationId: () => String(notifications.at(-1)?.seq),
    /** Deletes a status: its id answers 404 from now on. */
    remove(id: string) {
      statuses.delete(id);
    },
    /** The next request gets this `{ error }` answer instead. */
    failNext(status: number, message: string, headers?: Record<string, string>) {
      queue.push(error(status, message, headers));
    },
    /** The next `times` requests for `path` get this `{ error }` answer; other paths answer as usual. */
    failPath(path: string, status: number, message: string, times = 1, headers?: Record<string, string>) {
      for (let i = 0; i < times; i++) pathFailures.push({ path, answer: error(status, message, headers) });
    },
    /** The next request is throttled as Mastodon throttles: 429, its window's end in X-RateLimit-Reset. */
    rateLimitNext(resetInSeconds: number) {
      queue.push(
        error(429, "Too many requests", {
          "x-ratelimit-limit": "300",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": new Date(Date.now() + resetInSeconds * 1000).toISOString(),
        }),
      );
    },
    close: server.close,
  };
}
