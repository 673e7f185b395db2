import { AtpAgent, XRPCError } from "@atproto/api";
import type { Logger } from "pino";
import { callExternal, ExternalServiceError, type OutboundOptions } from "./http.ts";
import type { Fetch } from "./outbound.ts";

const SERVICE = "Bluesky";
/** getPosts takes at most 25 AT-URIs a call. */
export const GET_POSTS_BATCH = 25;
/** Errors the PDS answers when the session cannot be used any more (after the SDK's own refresh has failed). */
const SESSION_GONE = new Set(["ExpiredToken", "InvalidToken", "AuthenticationRequired", "AuthMissing"]);

export interface BlueskyClientOptions {
  /** The PDS: log-in, session refresh and the bot's notifications. */
  serviceUrl: string;
  /** An AppView for public reads (getPosts, searchPosts); unset, they go through the PDS. */
  appViewUrl?: string;
  identifier?: string;
  appPassword?: string;
  logger?: Logger;
  /** Further attempts after the first on 429/5xx and lost connections. */
  retries?: number;
  timeoutMs?: number;
  /** Waits between attempts; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
}

/** One page of a listing as the network sent it: entries are checked one by one by whoever reads them. */
export interface RawPage {
  entries: unknown[];
  cursor: string | null;
}

/** Bluesky's rate-limit window: `ratelimit-reset` is the epoch second the window opens again. */
function rateLimitReset(response: Response): number | null {
  const reset = Number(response.headers.get("ratelimit-reset"));
  if (response.status !== 429 || !Number.isFinite(reset) || reset <= 0) return null;
  return Math.max(reset * 1000 - Date.now(), 1000);
}

/**
 * A fetch for the SDK built on `callExternal`. The SDK is given the fetch rather than having its calls wrapped
 * because one SDK call may be several requests (the call, a session refresh, the call again), and each needs its
 * own timeout and backoff; wrapping the call would repeat a refresh that had already succeeded.
 */
function outboundFetch(options: OutboundOptions): Fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    // Read once so that a retry can send the same body again.
    const body = request.body ? await request.arrayBuffer() : undefined;
    return callExternal(
      request.url,
      { method: request.method, headers: request.headers, body, signal: request.signal },
      options,
    );
  };
}

/** The SDK wraps what the fetch threw; an outage must reach intake as itself, retryable. */
function unwrap(error: unknown): unknown {
  if (error instanceof XRPCError && error.cause instanceof ExternalServiceError) return error.cause;
  return error;
}

/**
 * The SDK checks every answer against its lexicon and refuses the whole page for one bad entry; the error (not
 * exported by the SDK, so recognised by its fields) keeps the body, whose good entries are still worth reading.
 */
function refusedByLexicon(
  error: unknown,
): { responseBody: unknown; lexiconNsid?: string; validationError?: Error } | null {
  return error instanceof XRPCError && "responseBody" in error && "validationError" in error
    ? (error as XRPCError & { responseBody: unknown; lexiconNsid?: string; validationError?: Error })
    : null;
}

/** What a listing answered, as raw entries; an answer the lexicon refuses keeps its well-formed entries. */
function rawPage(body: unknown, field: string): RawPage {
  const record = (body ?? {}) as Record<string, unknown>;
  const entries = Array.isArray(record[field]) ? (record[field] as unknown[]) : [];
  return { entries, cursor: typeof record.cursor === "string" && record.cursor ? record.cursor : null };
}

/**
 * The bot's Bluesky account through `@atproto/api`: an app-password session on its PDS (refreshed on expiry, and
 * opened again when the refresh token has expired too), its notifications, and post reads.
 */
export class BlueskyClient {
  private readonly options: BlueskyClientOptions;
  private readonly pds: AtpAgent;
  private readonly appView: AtpAgent;
  private login: Promise<unknown> | null = null;

  constructor(options: BlueskyClientOptions) {
    this.options = options;
    const fetch = outboundFetch({
      service: SERVICE,
      // After log-in the SDK follows the account's DID document to its PDS, an address a remote server chose:
      // only the configured PDS and AppView may be anywhere, every other host must be public.
      reach: {
        privateHostsAllowed: [options.serviceUrl, options.appViewUrl].flatMap((url) =>
          url ? [new URL(url).hostname] : [],
        ),
      },
      retries: options.retries ?? 3,
      timeoutMs: options.timeoutMs ?? 15_000,
      logger: options.logger,
      sleep: options.sleep,
      waitHint: rateLimitReset,
    });
    this.pds = new AtpAgent({ service: options.serviceUrl, fetch });
    this.appView = options.appViewUrl ? new AtpAgent({ service: options.appViewUrl, fetch }) : this.pds;
  }

  get hasCredentials(): boolean {
    return Boolean(this.options.identifier && this.options.appPassword);
  }

  private async ensureSession() {
    if (this.pds.hasSession) return;
    const { identifier, appPassword } = this.options;
    if (!identifier || !appPassword) {
      throw new Error("Bluesky needs BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD for this call.");
    }
    // One log-in for concurrent callers: createSession has a tight daily limit per account.
    this.login ??= this.pds.login({ identifier, password: appPassword }).finally(() => {
      this.login = null;
    });
    try {
      await this.login;
    } catch (error) {
      throw unwrap(error);
    }
  }

  /**
   * Runs one read, with the session when it goes through the PDS. When the SDK's refresh found the refresh token
   * expired too, it drops the session: log in again and read once more.
   */
  private async read<T>(agent: AtpAgent, call: () => Promise<{ data: T }>): Promise<unknown> {
    const needsSession = agent === this.pds && this.hasCredentials;
    for (let attempt = 0; ; attempt++) {
      if (needsSession) await this.ensureSession();
      try {
        return (await call()).data;
      } catch (error) {
        const refused = refusedByLexicon(error);
        if (refused) {
          this.options.logger?.warn(
            { service: SERVICE, method: refused.lexiconNsid, reason: refused.validationError?.message },
            "Bluesky answer outside its lexicon; reading its entries one by one",
          );
          return refused.responseBody;
        }
        const sessionGone =
          error instanceof XRPCError && SESSION_GONE.has(error.error ?? "") && !this.pds.hasSession;
        if (needsSession && sessionGone && attempt === 0) continue;
        throw unwrap(error);
      }
    }
  }

  /** The bot's notifications, newest first (the PDS proxies them from its AppView). */
  async listNotifications(params: { reasons: string[]; limit: number; cursor?: string }): Promise<RawPage> {
    const body = await this.read(this.pds, () => this.pds.app.bsky.notification.listNotifications(params));
    return rawPage(body, "notifications");
  }

  /** Post views of these AT-URIs, 25 a call; posts deleted or hidden are simply absent. */
  async getPosts(uris: string[]): Promise<unknown[]> {
    const posts: unknown[] = [];
    for (let start = 0; start < uris.length; start += GET_POSTS_BATCH) {
      const batch = uris.slice(start, start + GET_POSTS_BATCH);
      const body = await this.read(this.appView, () => this.appView.app.bsky.feed.getPosts({ uris: batch }));
      posts.push(...rawPage(body, "posts").entries);
    }
    return posts;
  }

  /**
   * Posts `text` as the bot's reply to a post: its parent is that post (its CID read from the AppView) and its
   * root the thread's first post, as app.bsky.feed.post records a reply. Null when the post is gone.
   */
  async reply(parentUri: string, text: string): Promise<{ uri: string; cid: string } | null> {
    const [view] = (await this.getPosts([parentUri])) as Array<
      | { uri?: unknown; cid?: unknown; record?: { reply?: { root?: { uri?: unknown; cid?: unknown } } } }
      | undefined
    >;
    if (typeof view?.uri !== "string" || typeof view.cid !== "string") return null;
    const parent = { uri: view.uri, cid: view.cid };
    const root = view.record?.reply?.root;
    const thread =
      typeof root?.uri === "string" && typeof root.cid === "string"
        ? { uri: root.uri, cid: root.cid }
        : parent;
    await this.ensureSession();
    const repo = this.pds.session?.did;
    if (!repo) throw new Error("Bluesky gave the bot's session no DID.");
    try {
      const { data } = await this.pds.com.atproto.repo.createRecord({
        repo,
        collection: "app.bsky.feed.post",
        record: {
          $type: "app.bsky.feed.post",
          text,
          createdAt: new Date().toISOString(),
          reply: { root: thread, parent },
        },
      });
      return { uri: data.uri, cid: data.cid };
    } catch (error) {
      throw unwrap(error);
    }
  }

  async searchPosts(params: {
    q: string;
    sort: "latest";
    limit: number;
    since?: string;
    cursor?: string;
  }): Promise<RawPage> {
    const body = await this.read(this.appView, () => this.appView.app.bsky.feed.searchPosts(params));
    return rawPage(body, "posts");
  }
}
