import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface FakeXPost {
  id: string;
  text: string;
  author_id: string;
  created_at: string;
  referenced_tweets?: Array<{ type: "replied_to" | "quoted"; id: string }>;
}

/**
 * A local X API v2 speaking the real wire format for what intake uses: user lookup, mentions and recent
 * search, newest first, with since_id, max_results, pagination_token and rate-limit answers; and POST /2/tweets
 * (a reply `{ text, reply: { in_reply_to_tweet_id } }`), which takes only the bot's user token, as X does.
 */
export async function startFakeX(options: { bearerToken: string; botUsername: string; userToken?: string }) {
  const users = new Map<string, { id: string; username: string; name: string; profile_image_url: string }>();
  const posts: FakeXPost[] = [];
  // Lookups by id and the newest-first order are kept as tweets are added: a bench of 10,000 mentions pages
  // through them a hundred times, and the fake's own cost must not be what the bench measures.
  const byId = new Map<string, FakeXPost>();
  const newestFirst = (a: FakeXPost, b: FakeXPost) =>
    b.id.length - a.id.length || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0);
  let mentionCache: { count: number; list: FakeXPost[] } | null = null;
  const failures: Array<{ status: number; resetInSeconds?: number }> = [];
  const requests: URL[] = [];
  let nextId = 1_700_000_000_000_000_000n;

  const user = (username: string) => {
    let found = [...users.values()].find((u) => u.username.toLowerCase() === username.toLowerCase());
    if (!found) {
      found = {
        id: String(users.size + 1000),
        username,
        name: username,
        profile_image_url: `https://pbs.example/${username}.jpg`,
      };
      users.set(found.id, found);
    }
    return found;
  };
  const bot = user(options.botUsername);

  const page = (matching: FakeXPost[], url: URL) => {
    const sinceId = url.searchParams.get("since_id");
    const max = Number(url.searchParams.get("max_results") ?? 10);
    const offset = Number(url.searchParams.get("pagination_token") ?? 0);
    const since = sinceId ? BigInt(sinceId) : null;
    const newer = matching.filter((t) => since === null || BigInt(t.id) > since).sort(newestFirst);
    const slice = newer.slice(offset, offset + max);
    const referenced = slice
      .flatMap((t) => t.referenced_tweets ?? [])
      .map((r) => byId.get(r.id))
      .filter((t): t is FakeXPost => Boolean(t));
    const authorIds = new Set([...slice, ...referenced].map((t) => t.author_id));
    return {
      ...(slice.length ? { data: slice } : {}),
      includes: {
        users: [...authorIds].map((id) => users.get(id)),
        ...(referenced.length ? { tweets: referenced } : {}),
      },
      meta: {
        result_count: slice.length,
        ...(slice.length ? { newest_id: slice[0].id, oldest_id: slice[slice.length - 1].id } : {}),
        ...(offset + max < newer.length ? { next_token: String(offset + max) } : {}),
      },
    };
  };

  const posted: Array<{ id: string; text: string; inReplyTo: string; receivedAt: number }> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x.local");
    requests.push(url);
    res.setHeader("Content-Type", "application/json");
    if (req.method === "POST" && url.pathname === "/2/tweets") {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () =>
        receiveBotPost(req.headers.authorization, Buffer.concat(chunks).toString("utf8"), res),
      );
      return;
    }
    if (req.headers.authorization !== `Bearer ${options.bearerToken}`) {
      res.statusCode = 401;
      res.end(JSON.stringify({ title: "Unauthorized", status: 401 }));
      return;
    }
    const failure = failures.shift();
    if (failure) {
      res.statusCode = failure.status;
      if (failure.resetInSeconds !== undefined) {
        res.setHeader("x-rate-limit-reset", String(Math.floor(Date.now() / 1000) + failure.resetInSeconds));
      }
      res.end(JSON.stringify({ title: "Too Many Requests", status: failure.status }));
      return;
    }
    const byName = url.pathname.match(/^\/2\/users\/by\/username\/(\w+)$/);
    if (byName) {
      res.end(JSON.stringify({ data: user(byName[1]) }));
      return;
    }
    if (url.pathname === `/2/users/${bot.id}/mentions`) {
      if (mentionCache?.count !== posts.length) {
        const mention = new RegExp(`@${bot.username}(?!\\w)`, "i");
        mentionCache = {
          count: posts.length,
          list: posts.filter((t) => mention.test(t.text)).sort(newestFirst),
        };
      }
      res.end(JSON.stringify(page(mentionCache.list, url)));
      return;
    }
    if (url.pathname === "/2/tweets/search/recent") {
      const terms = (url.searchParams.get("query") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      res.end(
        JSON.stringify(
          page(
            posts.filter((t) => terms.every((term) => t.text.toLowerCase().includes(term))),
            url,
          ),
        ),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ title: "Not Found" }));
  });
  const receiveBotPost = (authorization: string | undefined, raw: string, res: ServerResponse) => {
    const answer = (status: number, body: unknown) => {
      res.statusCode = status;
      res.end(JSON.stringify(body));
    };
    // Posting needs the account's own token: the app-only bearer token is refused, as X refuses it.
    if (!options.userToken || authorization !== `Bearer ${options.userToken}`) {
      return answer(403, { title: "Unsupported Authentication", status: 403 });
    }
    const failure = failures.shift();
    if (failure) {
      if (failure.resetInSeconds !== undefined) {
        res.setHeader("x-rate-limit-reset", String(Math.floor(Date.now() / 1000) + failure.resetInSeconds));
      }
      return answer(failure.status, { title: "Service Unavailable", status: failure.status });
    }
    let body: { text?: unknown; reply?: { in_reply_to_tweet_id?: unknown } };
    try {
      body = JSON.parse(raw);
    } catch {
      return answer(400, { title: "Invalid Request", status: 400 });
    }
    const parent =
      typeof body.reply?.in_reply_to_tweet_id === "string" ? body.reply.in_reply_to_tweet_id : "";
    if (typeof body.text !== "string" || !body.text || (body.reply && !byId.has(parent))) {
      return answer(400, {
        title: "Invalid Request",
        status: 400,
        detail: "One or more parameters are invalid.",
      });
    }
    nextId += 1n;
    const id = String(nextId);
    const post: FakeXPost = {
      id,
      text: body.text,
      author_id: bot.id,
      created_at: new Date().toISOString(),
      ...(parent ? { referenced_tweets: [{ type: "replied_to" as const, id: parent }] } : {}),
    };
    posts.push(post);
    byId.set(id, post);
    posted.push({ id, text: body.text, inReplyTo: parent, receivedAt: Date.now() });
    return answer(201, { data: { id, text: body.text, edit_history_tweet_ids: [id] } });
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** The bot's posts through POST /2/tweets, in order. */
    posted,
    /** Adds a post as X would hold it; returns its id. */
    post(username: string, text: string, inReplyTo?: string): string {
      nextId += 1n;
      const id = String(nextId);
      const post: FakeXPost = {
        id,
        text,
        author_id: user(username).id,
        created_at: new Date().toISOString(),
        ...(inReplyTo ? { referenced_tweets: [{ type: "replied_to" as const, id: inReplyTo }] } : {}),
      };
      posts.push(post);
      byId.set(id, post);
      return id;
    },
    failNext(status: number, resetInSeconds?: number) {
      failures.push({ status, resetInSeconds });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
