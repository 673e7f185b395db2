import type { Logger } from "pino";
import { callExternal } from "./http.ts";

/*
 * Plain REST through callExternal rather than `masto`: masto v8 calls the global fetch with no way to hand it ours,
 * so its calls would skip our timeouts, bounded backoff and Retry-After handling, and it turns 429s into errors of
 * its own instead of waiting. The few endpoints intake reads are simple JSON GETs.
 */

export interface MastodonClientOptions {
  /** The bot's instance, e.g. https://mastodon.social. */
  baseUrl: string;
  accessToken: string;
  /**
   * The domain in the instance's own handles (`user@domain`), when it is not the API's host name: a server whose
   * LOCAL_DOMAIN is example.social may answer at mastodon.example.social.
   */
  localDomain?: string;
  logger?: Logger;
  /** Waits between retries; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
  maxRetries?: number;
}

/** An answer of the instance that is not data (401, 403, 404, 422…), with the `error` it gave. */
export class MastodonApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
    this.name = "MastodonApiError";
  }
}

/** What a page of a list endpoint says about its neighbours, read from its Link header. */
export interface PageLinks {
  /** `max_id` of the older page (rel="next"). */
  maxId: string | null;
  /** `min_id` of the newer page (rel="prev"). */
  minId: string | null;
}

export interface MastodonPage {
  items: unknown[];
  links: PageLinks;
}

/** Most items Mastodon gives in one page of notifications or a timeline. */
export const MASTODON_PAGE_LIMIT = 40;

/** `<https://host/api/v1/notifications?max_id=1>; rel="next", <…?min_id=9>; rel="prev"`. */
export function parseLinkHeader(header: string | null): PageLinks {
  const links: PageLinks = { maxId: null, minId: null };
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]*)>\s*;\s*rel="?(next|prev)"?/i.exec(part.trim());
    if (!match) continue;
    let target: URL;
    try {
      target = new URL(match[1]);
    } catch {
      continue;
    }
    if (match[2].toLowerCase() === "next") links.maxId = target.searchParams.get("max_id");
    else links.minId = target.searchParams.get("min_id") ?? target.searchParams.get("since_id");
  }
  return links;
}

/**
 * Mastodon's 429 says when its window ends in X-RateLimit-Reset, an ISO 8601 time (not epoch seconds as on X); a
 * Retry-After, when a proxy in front sends one, is read by callExternal itself.
 */
function rateLimitReset(response: Response): number | null {
  if (response.status !== 429 || response.headers.has("retry-after")) return null;
  const reset = Date.parse(response.headers.get("x-ratelimit-reset") ?? "");
  return Number.isNaN(reset) ? null : Math.max(reset - Date.now(), 1000);
}

async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === "string") return body.error.slice(0, 300);
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return `HTTP ${response.status}`;
}

/** The REST API of the bot's instance: its account, its mention notifications, statuses and hashtag timelines. */
export class MastodonClient {
  private readonly options: MastodonClientOptions;
  /** The domain the instance's own accounts have in their handles (their `acct` leaves it out). */
  readonly instanceHost: string;

  constructor(options: MastodonClientOptions) {
    this.options = options;
    this.instanceHost = options.localDomain || new URL(options.baseUrl).hostname;
  }

  private async get(path: string, params: Array<[string, string]>): Promise<Response> {
    const url = new URL(path, this.options.baseUrl);
    for (const [key, value] of params) url.searchParams.append(key, value);
    return this.call(url, {}, this.options.maxRetries ?? 4);
  }

  private async call(url: URL, init: RequestInit, retries: number): Promise<Response> {
    const response = await callExternal(
      url,
      {
        ...init,
        headers: {
          Authorization: `Bearer ${this.options.accessToken}`,
          Accept: "application/json",
          ...(init.headers as Record<string, string> | undefined),
        },
      },
      {
        service: "Mastodon API",
        reach: "configured",
        timeoutMs: 20_000,
        retries,
        logger: this.options.logger,
        sleep: this.options.sleep,
        waitHint: rateLimitReset,
      },
    );
    if (!response.ok) {
      throw new MastodonApiError(
        `Mastodon API ${url.pathname} answered ${response.status}: ${await errorMessage(response)}`,
        response.status,
      );
    }
    return response;
  }

  private async json(response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch {
      throw new MastodonApiError(`Mastodon API ${new URL(response.url).pathname} sent no JSON`, 502);
    }
  }

  /** `GET /api/v1/accounts/verify_credentials`: whose token this is. */
  async verifyCredentials(): Promise<{ acct: string }> {
    const body = (await this.json(await this.get("/api/v1/accounts/verify_credentials", []))) as {
      acct?: unknown;
    };
    if (typeof body?.acct !== "string" || !body.acct) {
      throw new MastodonApiError("Mastodon API verify_credentials named no account", 502);
    }
    return { acct: body.acct };
  }

  /**
   * Where a status of this instance is read by its local id: what a reply's parent is called when the instance
   * will not show it, so the reply still says it answers something (and answers nothing stored).
   */
  statusAddress(id: string): string {
    return new URL(`/api/v1/statuses/${encodeURIComponent(id)}`, this.options.baseUrl).href;
  }

  /** `GET /api/v1/statuses/:id`; null when the instance will not show it (deleted, private, unknown). */
  async status(id: string): Promise<unknown | null> {
    try {
      return await this.json(await this.get(`/api/v1/statuses/${encodeURIComponent(id)}`, []));
    } catch (error) {
      if (error instanceof MastodonApiError && [403, 404, 410].includes(error.status)) return null;
      throw error;
    }
  }

  /**
   * Posts `text` as the bot's reply to a status known by its URI: the instance resolves the URI to its own status
   * (`GET /api/v2/search?resolve=true`), then `POST /api/v1/statuses` with `in_reply_to_id`, unlisted so the
   * acknowledgement does not fill public timelines. The Idempotency-Key makes a repeated POST one status. Null
   * when the instance cannot find the status.
   */
  async reply(
    statusUri: string,
    text: string,
    idempotencyKey: string,
  ): Promise<{ id: string; url: string | null } | null> {
    const found = (await this.json(
      await this.get("/api/v2/search", [
        ["q", statusUri],
        ["type", "statuses"],
        ["resolve", "true"],
        ["limit", "1"],
      ]),
    )) as { statuses?: Array<{ id?: unknown; uri?: unknown }> } | null;
    const status = found?.statuses?.find((entry) => entry?.uri === statusUri) ?? found?.statuses?.[0];
    if (typeof status?.id !== "string") return null;
    const url = new URL("/api/v1/statuses", this.options.baseUrl);
    const posted = (await this.json(
      await this.call(
        url,
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
          body: JSON.stringify({ status: text, in_reply_to_id: status.id, visibility: "unlisted" }),
        },
        0,
      ),
    )) as { id?: unknown; url?: unknown } | null;
    if (typeof posted?.id !== "string")
      throw new MastodonApiError("Mastodon API /api/v1/statuses named no status", 502);
    return { id: posted.id, url: typeof posted.url === "string" ? posted.url : null };
  }

  /** One page of a list endpoint (notifications, a timeline), newest first as Mastodon sends it. */
  async page(path: string, params: Array<[string, string]>): Promise<MastodonPage> {
    const response = await this.get(path, params);
    const links = parseLinkHeader(response.headers.get("link"));
    const body = await this.json(response);
    if (!Array.isArray(body)) throw new MastodonApiError(`Mastodon API ${path} sent no list`, 502);
    return { items: body, links };
  }
}
