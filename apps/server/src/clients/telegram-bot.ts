import { Api, HttpError } from "grammy";
import type { Logger } from "pino";
import { callExternal, ExternalServiceError } from "./http.ts";
import { configuredFetch, type Fetch } from "./outbound.ts";

export interface TelegramBotOptions {
  /** The Bot API's root (`TELEGRAM_API_BASE_URL`). */
  apiRoot: string;
  token: string;
  logger?: Logger;
  /** Further attempts after a 429, a 5xx or a lost connection; bounded so a pass never stalls intake for long. */
  retries?: number;
  /** Waits between attempts; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
}

/** Telegram says how long to wait in the body (`parameters.retry_after`, seconds), not always in a header. */
async function retryAfterInBody(response: Response): Promise<number | null> {
  try {
    const body = (await response.clone().json()) as { parameters?: { retry_after?: unknown } };
    const seconds = body.parameters?.retry_after;
    return typeof seconds === "number" && seconds >= 0 ? seconds * 1000 : null;
  } catch {
    return null;
  }
}

/** grammY hands fetch the abort-controller package's signal, which Node's fetch and `AbortSignal.any` refuse. */
function nativeSignal(signal: unknown): AbortSignal | undefined {
  if (!signal) return undefined;
  if (signal instanceof AbortSignal) return signal;
  const foreign = signal as { aborted: boolean; addEventListener(type: "abort", listener: () => void): void };
  const controller = new AbortController();
  if (foreign.aborted) controller.abort();
  else foreign.addEventListener("abort", () => controller.abort());
  return controller.signal;
}

/**
 * A fetch for grammY clients that make their own single attempts (distributors: the engine retries the step): the
 * configured Bot API host through the outbound guard, with grammY's signal made one Node's fetch accepts.
 */
export function telegramFetch(apiRoot: string): Fetch {
  const send = configuredFetch(apiRoot);
  return (input, init) => send(input, { ...init, signal: nativeSignal(init?.signal) });
}

/**
 * grammY's Bot API client whose every call goes through `callExternal` (timeout, bounded backoff on 429/5xx
 * honouring Telegram's `retry_after`). A call that never got a usable answer surfaces as grammY's HttpError whose
 * `error` is the ExternalServiceError: an outage, never an answer.
 */
export function createTelegramBotApi(options: TelegramBotOptions): Api {
  // The token is part of every Bot API path, and paths go into retry logs and error messages.
  const hideToken = (text: string) => text.split(options.token).join("<token>");
  const logger = options.logger?.child(
    {},
    { redact: { paths: ["path"], censor: (value) => hideToken(String(value)) } },
  );
  const fetchThroughClient = async (url: string | URL | Request, init?: RequestInit) => {
    try {
      return await callExternal(
        url instanceof Request ? url.url : url,
        { ...init, signal: nativeSignal(init?.signal) },
        {
          service: "Telegram Bot API",
          reach: "configured",
          timeoutMs: 30_000,
          retries: options.retries ?? 3,
          maxBackoffMs: 30_000,
          logger,
          sleep: options.sleep,
          waitHint: retryAfterInBody,
        },
      );
    } catch (error) {
      if (!(error instanceof ExternalServiceError)) throw error;
      throw new ExternalServiceError(
        error.service,
        hideToken(error.message),
        error.status,
        error.retryable,
        error.retryAfterMs,
      );
    }
  };
  const api = new Api(options.token, {
    apiRoot: options.apiRoot.replace(/\/+$/, ""),
    // The client's own timeout and retries bound each call; grammY's would cut a retry short.
    timeoutSeconds: 300,
    fetch: fetchThroughClient as unknown as Fetch,
  });
  // grammY wraps whatever fetch threw as "Network request failed"; the outage's own error says what happened.
  api.config.use(async (previous, method, payload, signal) => {
    try {
      return await previous(method, payload, signal);
    } catch (error) {
      if (error instanceof HttpError && error.error instanceof ExternalServiceError) throw error.error;
      throw error;
    }
  });
  return api;
}
