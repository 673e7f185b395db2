import type { Logger } from "pino";
import { BlockedUrlError, configuredFetch, type Fetch, outboundFetch } from "./outbound.ts";

/**
 * A call to an outside service that did not give an answer we can use: it could not be reached, timed out,
 * or kept answering 429/5xx past the retries. `retryable` says whether asking again later can help; callers
 * must never read such an error as a "no".
 */
export class ExternalServiceError extends Error {
  readonly service: string;
  /** The last HTTP status, or 0 when no answer came at all. */
  readonly status: number;
  readonly retryable: boolean;
  /** How long the service asked us to wait, when it said. */
  readonly retryAfterMs?: number;

  constructor(service: string, message: string, status: number, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.service = service;
    this.status = status;
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
    this.name = "ExternalServiceError";
  }
}

/** 408, 425, 429 and 5xx may succeed if asked again; any other status is the service's answer. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

export interface OutboundOptions {
  /** Names the service in errors and logs ("X API", "NEAR RPC"). */
  service: string;
  timeoutMs?: number;
  /** Further attempts after the first when the answer is retryable; bounded. */
  retries?: number;
  /** Longest single wait between attempts. */
  maxBackoffMs?: number;
  logger?: Logger;
  /** Waits between attempts; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Whose choice the URL is, which decides what the outbound guard (`clients/outbound.ts`) lets it reach:
   * `"configured"` for a base URL the operator set in the environment (its host anywhere, redirects public only);
   * `{ privateHostsAllowed }` for one a feed, plugin, user or remote server chose (public only, but for those hosts).
   */
  reach: Reach;
  /**
   * Reads a service-specific wait from a retryable answer (X's x-rate-limit-reset, Discord's `retry_after` in the
   * body: read a clone, the answer's own body is discarded after).
   */
  waitHint?: (response: Response) => number | null | Promise<number | null>;
}

export type Reach = "configured" | { privateHostsAllowed: readonly string[]; redirects?: number };

function fetchFor(reach: Reach, url: string | URL): Fetch {
  return reach === "configured"
    ? configuredFetch(url)
    : outboundFetch(reach.privateHostsAllowed, { redirects: reach.redirects });
}

const MAX_RETRIES = 8;
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds or as an HTTP date. */
function retryAfterMs(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * fetch with a timeout, and bounded exponential backoff on connection failures, timeouts and retryable
 * statuses (honouring Retry-After). Returns the first non-retryable answer, OK or not, for the caller to read;
 * throws ExternalServiceError when no usable answer came. An `init.signal` stops it at once (its reason is thrown).
 */
export async function callExternal(
  url: string | URL,
  init: RequestInit,
  options: OutboundOptions,
): Promise<Response> {
  const retries = Math.min(options.retries ?? 0, MAX_RETRIES);
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  const path = new URL(url).pathname;
  const send = fetchFor(options.reach, url);
  for (let attempt = 0; ; attempt++) {
    const backoff = Math.min(1000 * 2 ** attempt, maxBackoff);
    let response: Response;
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
    try {
      response = await send(url, {
        ...init,
        signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
    } catch (error) {
      // The caller gave up (a step out of time, a worker stopping): no further attempt, its reason is the error.
      if (init.signal?.aborted) throw init.signal.reason ?? error;
      // A refused address is the guard's answer, not an outage: asking again cannot help.
      if (error instanceof BlockedUrlError) throw error;
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      const reason = timedOut ? "timed out" : "could not be reached";
      if (attempt >= retries) {
        throw new ExternalServiceError(options.service, `${options.service} ${reason} (${path}).`, 0, true);
      }
      options.logger?.warn(
        { service: options.service, path, wait: backoff, err: error },
        `${options.service} ${reason}, retrying`,
      );
      await sleep(backoff);
      continue;
    }
    if (!isRetryableStatus(response.status)) return response;
    const hinted = (await options.waitHint?.(response)) ?? retryAfterMs(response);
    if (attempt >= retries) {
      await response.body?.cancel();
      throw new ExternalServiceError(
        options.service,
        `${options.service} answered ${response.status} (${path}).`,
        response.status,
        true,
        hinted ?? undefined,
      );
    }
    const wait = Math.min(Math.max(hinted ?? backoff, 0), maxBackoff);
    options.logger?.warn(
      { service: options.service, path, status: response.status, wait },
      `${options.service} backoff`,
    );
    await response.body?.cancel();
    await sleep(wait);
  }
}

/**
 * `promise`, or the signal's reason as soon as it aborts: for SDKs that take no signal, so a step out of time
 * stops waiting (the request itself runs on to its own timeout).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", stop);
        reject(error);
      },
    );
  });
}
