import type { Logger } from "pino";
import type { FetchResult, MentionSource, SearchSource, SearchSpec, SocialPost } from "./types.ts";

interface XTweet {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  referenced_tweets?: Array<{ type: string; id: string }>;
}

interface XUser {
  id: string;
  username: string;
  profile_image_url?: string;
}

interface XPage {
  data?: XTweet[];
  includes?: { users?: XUser[]; tweets?: XTweet[] };
  meta?: { newest_id?: string; next_token?: string; result_count?: number };
  errors?: unknown[];
}

export interface XApiOptions {
  baseUrl: string;
  bearerToken: string;
  logger?: Logger;
  /** Waits between retries; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
  maxRetries?: number;
}

const TWEET_FIELDS = "created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets,entities";
const EXPANSIONS = "author_id,referenced_tweets.id,referenced_tweets.id.author_id";
const USER_FIELDS = "username,name,profile_image_url";
const MAX_BACKOFF_MS = 60_000;

export class XApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** X API v2 client for the bot's mentions and recent search, with backoff on 429 and 5xx. */
export class XApiClient {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxRetries: number;

  constructor(private readonly options: XApiOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.maxRetries = options.maxRetries ?? 5;
  }

  private async get<T>(path: string, params: Record<string, string | undefined>): Promise<T> {
    const url = new URL(path, this.options.baseUrl);
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(key, value);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { Authorization: `Bearer ${this.options.bearerToken}` },
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        // A reset or timed-out connection is as passing as a 5xx: back off and ask again.
        if (attempt >= this.maxRetries)
          throw new XApiError(`X API ${url.pathname} unreachable: ${String(error)}`, 0);
        const wait = Math.min(1000 * 2 ** attempt, MAX_BACKOFF_MS);
        this.options.logger?.warn({ err: error, wait, path: url.pathname }, "X API unreachable, retrying");
        await this.sleep(wait);
        continue;
      }
      if (response.ok) return (await response.json()) as T;
      const retriable = response.status === 429 || response.status >= 500;
      if (!retriable || attempt >= this.maxRetries) {
        throw new XApiError(`X API ${url.pathname} answered ${response.status}`, response.status);
      }
      const wait = this.backoff(response, attempt);
      this.options.logger?.warn({ status: response.status, wait, path: url.pathname }, "X API backoff");
      await this.sleep(wait);
    }
  }

  /** Honors x-rate-limit-reset on 429, otherwise exponential backoff. */
  private backoff(response: Response, attempt: number) {
    const reset = Number(response.headers.get("x-rate-limit-reset"));
    if (response.status === 429 && Number.isFinite(reset) && reset > 0) {
      return Math.min(Math.max(reset * 1000 - Date.now(), 1000), MAX_BACKOFF_MS);
    }
    return Math.min(1000 * 2 ** attempt, MAX_BACKOFF_MS);
  }

  async userIdOf(username: string): Promise<string> {
    const body = await this.get<{ data?: XUser }>(`/2/users/by/username/${encodeURIComponent(username)}`, {});
    if (!body.data?.id) throw new XApiError(`X user @${username} not found`, 404);
    return body.data.id;
  }

  /** Every page since `sinceId` (following next_token to the end), expanded into posts. */
  async collect(path: string, params: Record<string, string | undefined>): Promise<FetchResult> {
    const posts: SocialPost[] = [];
    let newest: string | null = null;
    let token: string | undefined;
    do {
      const page = await this.get<XPage>(path, {
        ...params,
        pagination_token: token,
        "tweet.fields": TWEET_FIELDS,
        expansions: EXPANSIONS,
        "user.fields": USER_FIELDS,
      });
      newest ??= page.meta?.newest_id ?? null;
      posts.push(...expandPage(page));
      token = page.meta?.next_token;
    } while (token);
    return { posts, cursor: newest };
  }
}

function expandPage(page: XPage): SocialPost[] {
  const users = new Map((page.includes?.users ?? []).map((u) => [u.id, u]));
  const tweets = new Map((page.includes?.tweets ?? []).map((t) => [t.id, t]));
  const toPost = (tweet: XTweet, depth: number): SocialPost => {
    const author = tweet.author_id ? users.get(tweet.author_id) : undefined;
    const repliedToId = tweet.referenced_tweets?.find((r) => r.type === "replied_to")?.id ?? null;
    const parent = repliedToId ? tweets.get(repliedToId) : undefined;
    return {
      id: tweet.id,
      text: tweet.text,
      authorId: tweet.author_id ?? "unknown",
      authorUsername: author?.username ?? tweet.author_id ?? "unknown",
      authorProfileImage: author?.profile_image_url ?? null,
      createdAt: tweet.created_at ? new Date(tweet.created_at) : new Date(),
      inReplyToId: repliedToId,
      repliedTo: parent && depth === 0 ? toPost(parent, 1) : null,
    };
  };
  return (page.data ?? []).map((tweet) => toPost(tweet, 0));
}

export class XMentionSource implements MentionSource {
  readonly key: string;
  private botUserId: string | null = null;
  constructor(
    private readonly client: XApiClient,
    private readonly botHandle: string,
    private readonly pageSize = 100,
  ) {
    this.key = `x:mentions:${botHandle.toLowerCase()}`;
  }

  async fetchMentions(cursor: string | null): Promise<FetchResult> {
    this.botUserId ??= await this.client.userIdOf(this.botHandle);
    return this.client.collect(`/2/users/${this.botUserId}/mentions`, {
      since_id: cursor ?? undefined,
      max_results: String(this.pageSize),
    });
  }
}

export class XSearchSource implements SearchSource {
  constructor(private readonly client: XApiClient) {}

  async search(spec: SearchSpec, cursor: string | null): Promise<FetchResult> {
    if (!spec.query) return { posts: [], cursor };
    const pageSize = String(Math.min(Math.max(spec.pageSize ?? 100, 10), 100));
    const result = await this.client.collect("/2/tweets/search/recent", {
      query: spec.query,
      since_id: cursor ?? undefined,
      max_results: pageSize,
    });
    return { posts: result.posts, cursor: result.cursor ?? cursor };
  }
}
