import type { Logger } from "pino";
import { callExternal, ExternalServiceError } from "./http.ts";

/** A link in a post's text: `url` is the t.co address X put in the text in its place. */
export interface XUrlEntity {
  url: string;
  expanded_url?: string;
  unwound_url?: string;
  /** Set when the link stands for the post's own photo or video (shown as media, not as a link). */
  media_key?: string;
}

export interface XPost {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  referenced_tweets?: Array<{ type: string; id: string }>;
  entities?: { urls?: XUrlEntity[] };
  /** A post longer than 280 characters: `text` holds only its start. */
  note_tweet?: { text: string; entities?: { urls?: XUrlEntity[] } };
  attachments?: { media_keys?: string[] };
}

export interface XUser {
  id: string;
  username: string;
  name?: string;
  profile_image_url?: string;
}

export interface XMedia {
  media_key: string;
  type: string;
  url?: string;
  preview_image_url?: string;
  alt_text?: string;
}

export interface XPage {
  data?: XPost[];
  includes?: { users?: XUser[]; tweets?: XPost[]; media?: XMedia[] };
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
  /**
   * Asks for one call from the operator's budget (X_API_CALLS_PER_HOUR, shared by every worker); a spent budget
   * stops the pass (or the reply) with `XBudgetSpent` until the window turns, instead of spending the operator's
   * quota.
   */
  budget?: () => Promise<{ allowed: boolean; retryAfterMs: number }>;
}

const X_POST_FIELDS =
  "created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets,entities,note_tweet,attachments";
const EXPANSIONS =
  "author_id,referenced_tweets.id,referenced_tweets.id.author_id,attachments.media_keys,referenced_tweets.id.attachments.media_keys";
const MEDIA_FIELDS = "type,url,preview_image_url,alt_text";
const USER_FIELDS = "username,name,profile_image_url";

/** An answer of the X API that is not data: `status` 0 when X could not be reached at all. */
export class XApiError extends Error {
  readonly status: number;
  /** How long X asked us to wait (a 429's reset). */
  readonly retryAfterMs?: number;

  constructor(message: string, status: number, retryAfterMs?: number) {
    super(message);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Our own budget said no: nothing was sent to X. */
export class XBudgetSpent extends XApiError {
  constructor(retryAfterMs: number) {
    super(
      `The X API budget for this hour is spent; X calls resume in ${Math.max(1, Math.ceil(retryAfterMs / 60_000))} min.`,
      429,
      retryAfterMs,
    );
  }
}

/** X's own rate-limit window: the reset time it sends with a 429. */
function rateLimitReset(response: Response): number | null {
  const reset = Number(response.headers.get("x-rate-limit-reset"));
  if (response.status !== 429 || !Number.isFinite(reset) || reset <= 0) return null;
  return Math.max(reset * 1000 - Date.now(), 1000);
}

/** X API v2 client for the bot's mentions and recent search, with bounded backoff on 429, 5xx and lost connections. */
export class XApiClient {
  private readonly options: XApiOptions;

  constructor(options: XApiOptions) {
    this.options = options;
  }

  private async spendBudget() {
    const budget = await this.options.budget?.();
    if (budget && !budget.allowed) throw new XBudgetSpent(budget.retryAfterMs);
  }

  private async get<T>(path: string, params: Record<string, string | undefined>): Promise<T> {
    const url = new URL(path, this.options.baseUrl);
    await this.spendBudget();
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await callExternal(
        url,
        { headers: { Authorization: `Bearer ${this.options.bearerToken}` } },
        {
          service: "X API",
          reach: "configured",
          timeoutMs: 30_000,
          retries: this.options.maxRetries ?? 5,
          logger: this.options.logger,
          sleep: this.options.sleep,
          waitHint: rateLimitReset,
        },
      );
    } catch (error) {
      if (error instanceof ExternalServiceError) throw new XApiError(error.message, error.status);
      throw error;
    }
    if (!response.ok)
      throw new XApiError(`X API ${url.pathname} answered ${response.status}`, response.status);
    return (await response.json()) as T;
  }

  /**
   * `POST /2/tweets` as a reply; the client's token must be the bot account's user token. Not retried here: a
   * repeated POST would post twice, so the caller (the processing engine) decides when to try again.
   */
  async reply(text: string, inReplyToPostId: string): Promise<{ id: string }> {
    const url = new URL("/2/tweets", this.options.baseUrl);
    await this.spendBudget();
    let response: Response;
    try {
      response = await callExternal(
        url,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${this.options.bearerToken}`,
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ text, reply: { in_reply_to_tweet_id: inReplyToPostId } }),
        },
        {
          service: "X API",
          reach: "configured",
          timeoutMs: 30_000,
          retries: 0,
          logger: this.options.logger,
          waitHint: rateLimitReset,
        },
      );
    } catch (error) {
      if (error instanceof ExternalServiceError) {
        throw new XApiError(error.message, error.status, error.retryAfterMs);
      }
      throw error;
    }
    const body = (await response.json().catch(() => null)) as { data?: { id?: unknown } } | null;
    if (!response.ok) throw new XApiError(`X API /2/tweets answered ${response.status}`, response.status);
    if (typeof body?.data?.id !== "string") throw new XApiError("X API /2/tweets named no post", 502);
    return { id: body.data.id };
  }

  async userIdOf(username: string): Promise<string> {
    const body = await this.get<{ data?: XUser }>(`/2/users/by/username/${encodeURIComponent(username)}`, {});
    if (!body.data?.id) throw new XApiError(`X user @${username} not found`, 404);
    return body.data.id;
  }

  /** Every page since `since_id` (following next_token to the end), with the expansions intake needs. */
  async pages(path: string, params: Record<string, string | undefined>): Promise<XPage[]> {
    const pages: XPage[] = [];
    let token: string | undefined;
    do {
      const page = await this.get<XPage>(path, {
        ...params,
        pagination_token: token,
        "tweet.fields": X_POST_FIELDS,
        expansions: EXPANSIONS,
        "user.fields": USER_FIELDS,
        "media.fields": MEDIA_FIELDS,
      });
      pages.push(page);
      token = page.meta?.next_token;
    } while (token);
    return pages;
  }
}
