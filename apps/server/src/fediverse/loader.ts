import { signRequest } from "@fedify/fedify";
import {
  type AuthenticatedDocumentLoaderFactory,
  type DocumentLoader,
  FetchError,
  preloadedContexts,
  type RemoteDocument,
} from "@fedify/vocab-runtime";
import type { Logger } from "pino";
import { callExternal } from "../clients/http.ts";
import { readBodyUpTo } from "../http/bounded-body.ts";

/** A remote actor, key or object larger than this is refused: none that is honest comes near it. */
export const REMOTE_DOCUMENT_MAX_BYTES = 512 * 1024;
const ACCEPT =
  'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

export interface LoaderSettings {
  /** Non-public hosts it may reach (only the development loopback allowance names any). */
  allowedHosts: readonly string[];
  logger: Logger;
}

async function load(
  url: string,
  settings: LoaderSettings,
  sign: ((request: Request) => Promise<Request>) | null,
  signal?: AbortSignal,
): Promise<RemoteDocument> {
  // The JSON-LD contexts every fediverse document names are answered from the framework's copies: no request.
  if (url in preloadedContexts) {
    return { contextUrl: null, documentUrl: url, document: preloadedContexts[url] };
  }
  let init: RequestInit = { method: "GET", headers: { Accept: ACCEPT }, signal };
  if (sign) {
    const signed = await sign(new Request(url, { method: "GET", headers: { Accept: ACCEPT } }));
    init = { method: "GET", headers: signed.headers, signal };
  }
  let response: Response;
  try {
    // A remote server chose this address (an actor, its key, an object): the guard lets it reach public
    // addresses only (decision 0023), each redirect checked again.
    response = await callExternal(url, init, {
      service: "Fediverse server",
      reach: { privateHostsAllowed: settings.allowedHosts, redirects: 3 },
      timeoutMs: 10_000,
      retries: 1,
      logger: settings.logger,
    });
  } catch (error) {
    throw new FetchError(url, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new FetchError(url, `HTTP ${response.status}`);
  }
  const body = await readBodyUpTo(response, REMOTE_DOCUMENT_MAX_BYTES);
  if (body === null)
    throw new FetchError(url, `the answer is larger than ${REMOTE_DOCUMENT_MAX_BYTES} bytes`);
  const text = body.toString("utf8");
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new FetchError(url, "the answer is not JSON");
  }
  return { contextUrl: null, documentUrl: response.url || url, document };
}

/**
 * The contexts our own activities name (ActivityStreams, security, …), from Fedify's copies: compacting what we
 * send never needs a request.
 */
export const preloadedContextLoader: DocumentLoader = async (url) => {
  if (!(url in preloadedContexts)) throw new FetchError(url, "not a context this server sends with");
  return { contextUrl: null, documentUrl: url, document: preloadedContexts[url] };
};

/** Fedify's document loader, through the outbound guard: every actor, key and object it fetches. */
export function guardedDocumentLoader(settings: LoaderSettings): DocumentLoader {
  return (url, options) => load(url, settings, null, options?.signal);
}

/** The loader for servers that answer only signed fetches ("authorized fetch"): signed as one of our actors. */
export function guardedAuthenticatedLoaderFactory(
  settings: LoaderSettings,
): AuthenticatedDocumentLoaderFactory {
  return (identity) => (url, options) =>
    load(
      url,
      settings,
      (request) => signRequest(request, identity.privateKey, identity.keyId),
      options?.signal,
    );
}
