import { createHash, randomBytes } from "node:crypto";
import { type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Bluesky PDS + AppView speaking XRPC JSON (`{base}/xrpc/<nsid>`): createSession, refreshSession and
 * getSession; the bot's listNotifications (newest first, `limit`, `reasons`, and the real cursor: the sortAt time
 * of the page's last entry); getPosts (at most 25 `uris`); searchPosts (`q`, `sort=latest`, `since`, offset
 * cursors). Refusals are XRPC's `{ error, message }`, a 429 carries the ratelimit-* headers, and an expired access
 * token answers 400 `ExpiredToken` as the PDS does. The bot posts through com.atproto.repo.createRecord (its own
 * repo, `app.bsky.feed.post`, a reply's root and parent strong refs checked against stored posts). Posts are stored as records and shown as post views, with
 * mention facets at their UTF-8 byte offsets, CIDs and blob refs in their wire form.
 */

export interface FakeImage {
  alt: string;
  mimeType?: string;
}

export interface FakePostInput {
  /** The author's handle (`amy.bsky.social`); accounts are made on first use. */
  handle: string;
  text: string;
  /** The AT-URI this post replies to. */
  replyTo?: string;
  /** Facets beyond the mention facets the fake adds for `@handle`s of known accounts (links, tags). */
  facets?: unknown[];
  images?: FakeImage[];
  /** Wrap the images in a quote of this post (`app.bsky.embed.recordWithMedia`). */
  quote?: string;
  displayName?: string;
}

interface Account {
  did: string;
  handle: string;
  displayName: string;
  avatar: string;
}

interface StoredPost {
  uri: string;
  cid: string;
  author: Account;
  // biome-ignore lint/suspicious/noExplicitAny: the record as the network stores it
  record: any;
  // biome-ignore lint/suspicious/noExplicitAny: the embed view the AppView derives from the record
  embedView?: any;
  indexedAt: string;
}

/** A notification as listNotifications sends it; tests may add any shape, well-formed or not. */
type FakeNotification = Record<string, unknown>;

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

function base32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** A CIDv1 (sha-256) of `content` in base32 multibase, as the network writes them: dag-cbor records, raw blobs. */
function cidOf(content: string, codec: "dag-cbor" | "raw"): string {
  const digest = createHash("sha256").update(content).digest();
  return `b${base32(Uint8Array.from([0x01, codec === "raw" ? 0x55 : 0x71, 0x12, 0x20, ...digest]))}`;
}

/** An AT Protocol record key: a TID, 13 base32-sortable characters from microseconds since the epoch. */
function tid(micros: bigint): string {
  const alphabet = "234567abcdefghijklmnopqrstuvwxyz";
  let value = (micros << 10n) | 1n;
  let out = "";
  for (let i = 0; i < 13; i++) {
    out = alphabet[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

const xrpcError = (status: number, error: string, message: string, headers?: Record<string, string>) => ({
  status,
  body: { error, message },
  ...(headers ? { headers } : {}),
});

export async function startFakeBluesky(options: { handle: string; appPassword: string }) {
  /** Answers given instead of the normal ones, in order: to the next call of `method`, or of anything. */
  const queued: Array<{ answer: FakeAnswer; method?: string }> = [];
  const accounts = new Map<string, Account>();
  const posts = new Map<string, StoredPost>();
  const notifications: FakeNotification[] = [];
  const accessTokens = new Map<string, { did: string; expired: boolean }>();
  const refreshTokens = new Map<string, { did: string; expired: boolean }>();
  let clock = Date.parse("2026-11-20T09:00:00.000Z");
  const tick = () => {
    clock += 1000;
    return new Date(clock).toISOString();
  };

  const account = (handle: string, displayName?: string): Account => {
    const key = handle.toLowerCase();
    let found = accounts.get(key);
    if (!found) {
      const did = `did:plc:${base32(createHash("sha256").update(key).digest()).slice(0, 24)}`;
      found = {
        did,
        handle: key,
        displayName: displayName ?? key.split(".")[0],
        avatar: `https://cdn.bsky.app/img/avatar/plain/${did}/${cidOf(`avatar:${key}`, "raw")}@jpeg`,
      };
      accounts.set(key, found);
    }
    return found;
  };
  const bot = account(options.handle, "Curate bot");

  const profileView = (author: Account) => ({
    did: author.did,
    handle: author.handle,
    displayName: author.displayName,
    avatar: author.avatar,
    labels: [],
    createdAt: "2024-01-01T00:00:00.000Z",
  });

  const postView = (post: StoredPost) => ({
    uri: post.uri,
    cid: post.cid,
    author: profileView(post.author),
    record: post.record,
    ...(post.embedView ? { embed: post.embedView } : {}),
    replyCount: 0,
    repostCount: 0,
    likeCount: 0,
    quoteCount: 0,
    indexedAt: post.indexedAt,
    labels: [],
  });

  /** Mention facets for `@handle`s of accounts the fake knows, at their UTF-8 byte offsets, as the app makes them. */
  const mentionFacets = (text: string) => {
    const facets: unknown[] = [];
    for (const match of text.matchAll(/@([a-z0-9][a-z0-9.-]*[a-z0-9])/gi)) {
      const mentioned = accounts.get(match[1].toLowerCase());
      if (!mentioned) continue;
      const byteStart = Buffer.byteLength(text.slice(0, match.index));
      facets.push({
        $type: "app.bsky.richtext.facet",
        index: { byteStart, byteEnd: byteStart + Buffer.byteLength(match[0]) },
        features: [{ $type: "app.bsky.richtext.facet#mention", did: mentioned.did }],
      });
    }
    return facets;
  };

  /** Stores a post as its author's PDS would, and notifies the bot as the AppView would; returns its AT-URI. */
  const addPost = (input: FakePostInput): string => {
    const author = account(input.handle, input.displayName);
    const indexedAt = tick();
    const rkey = tid(BigInt(clock) * 1000n);
    const uri = `at://${author.did}/app.bsky.feed.post/${rkey}`;
    const parent = input.replyTo ? posts.get(input.replyTo) : undefined;
    if (input.replyTo && !parent) throw new Error(`no post ${input.replyTo} to reply to`);
    const facets = [...mentionFacets(input.text), ...(input.facets ?? [])];
    const images = (input.images ?? []).map((image, index) => ({
      alt: image.alt,
      image: {
        $type: "blob",
        ref: { $link: cidOf(`${uri}#${index}`, "raw") },
        mimeType: image.mimeType ?? "image/jpeg",
        size: 184_320 + index,
      },
      aspectRatio: { width: 1600, height: 900 },
    }));
    const imagesEmbed = images.length ? { $type: "app.bsky.embed.images", images } : null;
    const quoted = input.quote ? posts.get(input.quote) : undefined;
    const parentRoot = parent?.record.reply?.root ?? (parent ? { uri: parent.uri, cid: parent.cid } : null);
    const record = {
      $type: "app.bsky.feed.post",
      text: input.text,
      createdAt: new Date(clock - 250).toISOString(),
      langs: ["en"],
      ...(facets.length ? { facets } : {}),
      ...(parent ? { reply: { root: parentRoot, parent: { uri: parent.uri, cid: parent.cid } } } : {}),
      ...(quoted && imagesEmbed
        ? {
            embed: {
              $type: "app.bsky.embed.recordWithMedia",
              record: { $type: "app.bsky.embed.record", record: { uri: quoted.uri, cid: quoted.cid } },
              media: imagesEmbed,
            },
          }
        : imagesEmbed
          ? { embed: imagesEmbed }
          : {}),
    };
    const imagesView = images.length
      ? {
          $type: "app.bsky.embed.images#view",
          images: images.map((image) => ({
            thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${author.did}/${image.image.ref.$link}@jpeg`,
            fullsize: `https://cdn.bsky.app/img/feed_fullsize/plain/${author.did}/${image.image.ref.$link}@jpeg`,
            alt: image.alt,
            aspectRatio: image.aspectRatio,
          })),
        }
      : undefined;
    const embedView =
      quoted && imagesView
        ? {
            $type: "app.bsky.embed.recordWithMedia#view",
            record: {
              $type: "app.bsky.embed.record#view",
              record: {
                $type: "app.bsky.embed.record#viewRecord",
                uri: quoted.uri,
                cid: quoted.cid,
                author: profileView(quoted.author),
                value: quoted.record,
                indexedAt: quoted.indexedAt,
              },
            },
            media: imagesView,
          }
        : imagesView;
    const post: StoredPost = {
      uri,
      cid: cidOf(JSON.stringify(record), "dag-cbor"),
      author,
      record,
      embedView,
      indexedAt,
    };
    posts.set(uri, post);

    const mentionsBot = facets.some((facet) =>
      // biome-ignore lint/suspicious/noExplicitAny: facets as given
      (facet as any)?.features?.some?.((feature: any) => feature?.did === bot.did),
    );
    const repliesToBot = parent?.author.did === bot.did;
    if (author.did !== bot.did && (mentionsBot || repliesToBot)) {
      notifications.push({
        uri,
        cid: post.cid,
        author: profileView(author),
        reason: repliesToBot ? "reply" : "mention",
        ...(repliesToBot ? { reasonSubject: parent?.uri } : {}),
        record,
        isRead: false,
        indexedAt,
        labels: [],
      });
    }
    return uri;
  };

  /** A notification as given (a like, a follow, a malformed entry), indexed now. */
  const addNotification = (notification: FakeNotification) => {
    notifications.push({ indexedAt: tick(), ...notification });
  };

  const newestFirst = (a: { indexedAt?: unknown }, b: { indexedAt?: unknown }) =>
    String(b.indexedAt).localeCompare(String(a.indexedAt));

  /** The account behind a request's access token, or the XRPC refusal. */
  const authorise = (request: ReceivedRequest): { did: string } | FakeAnswer => {
    const header = String(request.headers.authorization ?? "");
    if (!header.startsWith("Bearer ")) return xrpcError(401, "AuthMissing", "Authentication Required");
    const token = accessTokens.get(header.slice(7));
    if (!token) return xrpcError(400, "InvalidToken", "Token could not be verified");
    if (token.expired) return xrpcError(400, "ExpiredToken", "Token has expired");
    return { did: token.did };
  };

  const issueSession = () => {
    const accessJwt = `access.${randomBytes(12).toString("hex")}`;
    const refreshJwt = `refresh.${randomBytes(12).toString("hex")}`;
    accessTokens.set(accessJwt, { did: bot.did, expired: false });
    refreshTokens.set(refreshJwt, { did: bot.did, expired: false });
    return { accessJwt, refreshJwt, handle: bot.handle, did: bot.did, active: true };
  };

  /** The bot's own posts, made through createRecord. */
  const created: StoredPost[] = [];
  let loginCount = 0;
  let refreshCount = 0;

  const handle = (request: ReceivedRequest): FakeAnswer => {
    const method = request.path.replace(/^\/xrpc\//, "");
    const override = queued.findIndex((entry) => !entry.method || entry.method === method);
    if (override >= 0) return queued.splice(override, 1)[0].answer;
    const query = request.query;

    if (method === "com.atproto.server.createSession" && request.method === "POST") {
      const { identifier, password } = request.body ?? {};
      if (String(identifier).toLowerCase() !== bot.handle || password !== options.appPassword) {
        return xrpcError(401, "AuthenticationRequired", "Invalid identifier or password");
      }
      loginCount++;
      return { status: 200, body: { ...issueSession(), emailConfirmed: true } };
    }
    if (method === "com.atproto.server.refreshSession" && request.method === "POST") {
      const token = refreshTokens.get(String(request.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!token) return xrpcError(400, "InvalidToken", "Token could not be verified");
      if (token.expired) return xrpcError(400, "ExpiredToken", "Token has expired");
      refreshCount++;
      refreshTokens.delete(String(request.headers.authorization).slice(7));
      return { status: 200, body: { ...issueSession(), emailConfirmed: true } };
    }
    if (method === "com.atproto.server.getSession") {
      const who = authorise(request);
      if ("status" in who || "hang" in who) return who;
      return { status: 200, body: { handle: bot.handle, did: bot.did, emailConfirmed: true, active: true } };
    }
    if (method === "app.bsky.notification.listNotifications") {
      const who = authorise(request);
      if ("status" in who || "hang" in who) return who;
      const limit = Number(query.get("limit") ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        return xrpcError(400, "InvalidRequest", "Error: limit must be <= 100");
      }
      const reasons = query.getAll("reasons");
      const before = query.get("cursor");
      const list = notifications
        .filter((n) => reasons.length === 0 || reasons.includes(String(n.reason)))
        .filter((n) => !before || String(n.indexedAt) < before)
        .sort(newestFirst);
      const page = list.slice(0, limit);
      const last = page.at(-1);
      return {
        status: 200,
        body: {
          notifications: page,
          ...(list.length > limit && last ? { cursor: String(last.indexedAt) } : {}),
          seenAt: "2026-11-20T08:00:00.000Z",
        },
      };
    }
    if (method === "app.bsky.feed.getPosts") {
      const uris = query.getAll("uris");
      if (uris.length > 25)
        return xrpcError(400, "InvalidRequest", "Error: uris must not have more than 25 elements");
      return {
        status: 200,
        body: {
          posts: uris.flatMap((uri) => (posts.has(uri) ? [postView(posts.get(uri) as StoredPost)] : [])),
        },
      };
    }
    if (method === "app.bsky.feed.searchPosts") {
      const q = query.get("q");
      if (!q) return xrpcError(400, "InvalidRequest", 'Error: Params must have the property "q"');
      const limit = Number(query.get("limit") ?? 25);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        return xrpcError(400, "InvalidRequest", "Error: limit must be <= 100");
      }
      const since = query.get("since");
      const offset = Number(query.get("cursor") ?? 0);
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = [...posts.values()]
        .filter((post) => words.every((word) => post.record.text.toLowerCase().includes(word)))
        .filter((post) => !since || post.indexedAt >= since)
        .sort(newestFirst);
      const page = hits.slice(offset, offset + limit);
      return {
        status: 200,
        body: {
          posts: page.map(postView),
          hitsTotal: hits.length,
          ...(offset + limit < hits.length ? { cursor: String(offset + limit) } : {}),
        },
      };
    }
    if (method === "com.atproto.repo.createRecord" && request.method === "POST") {
      const who = authorise(request);
      if ("status" in who || "hang" in who) return who;
      const { repo, collection, record } = request.body ?? {};
      if (repo !== who.did) return xrpcError(400, "InvalidRequest", "Input/repo must be the session's DID");
      if (collection !== "app.bsky.feed.post" || typeof record?.text !== "string") {
        return xrpcError(400, "InvalidRequest", "Invalid app.bsky.feed.post record");
      }
      const known = (ref: { uri?: string; cid?: string } | undefined) =>
        Boolean(ref?.uri && posts.get(ref.uri)?.cid === ref.cid);
      if (record.reply && !(known(record.reply.parent) && known(record.reply.root))) {
        return xrpcError(400, "InvalidRequest", "Reply refs must name existing posts by uri and cid");
      }
      const uri = `at://${bot.did}/app.bsky.feed.post/${tid(BigInt(clock) * 1000n + BigInt(created.length + 1))}`;
      const stored: StoredPost = {
        uri,
        cid: cidOf(JSON.stringify(record), "dag-cbor"),
        author: bot,
        record,
        indexedAt: tick(),
      };
      posts.set(uri, stored);
      created.push(stored);
      return { status: 200, body: { uri, cid: stored.cid, validationStatus: "valid" } };
    }
    return xrpcError(501, "MethodNotImplemented", "Method Not Implemented");
  };

  const server = await startFakeServer(handle);
  return {
    url: server.url,
    requests: server.requests,
    close: server.close,
    bot,
    account,
    addPost,
    addNotification,
    /** The records the bot created (its replies), in order. */
    created: () => created.map((post) => ({ uri: post.uri, record: post.record })),
    /** A stored post's wire form: `record` as on the PDS, and its post view. */
    post(uri: string) {
      const post = posts.get(uri);
      if (!post) throw new Error(`no post ${uri}`);
      return { record: post.record, view: postView(post) };
    },
    /** The notification list as the bot would page through it, newest first. */
    notifications: () => [...notifications].sort(newestFirst),
    /** The next `times` calls of `method` (any method when unset) answer `answer`. */
    failNext(answer: FakeAnswer, { method, times = 1 }: { method?: string; times?: number } = {}) {
      for (let i = 0; i < times; i++) queued.push({ answer, method });
    },
    /** A 429 as the AppView sends it, the window opening `resetInSeconds` from now. */
    rateLimited(resetInSeconds = 1): FakeAnswer {
      return xrpcError(429, "RateLimitExceeded", "Rate Limit Exceeded", {
        "ratelimit-limit": "3000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(Math.floor(Date.now() / 1000) + resetInSeconds),
        "ratelimit-policy": "3000;w=300",
      });
    },
    serverError(status = 502): FakeAnswer {
      return xrpcError(status, "UpstreamFailure", "Upstream Failure");
    },
    /** Every access token handed out so far expires (the refresh tokens too, with `refreshToo`). */
    expireTokens({ refreshToo = false } = {}) {
      for (const token of accessTokens.values()) token.expired = true;
      if (refreshToo) for (const token of refreshTokens.values()) token.expired = true;
    },
    get logins() {
      return loginCount;
    },
    get refreshes() {
      return refreshCount;
    },
  };
}

export type FakeBluesky = Awaited<ReturnType<typeof startFakeBluesky>>;
