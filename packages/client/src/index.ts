import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./openapi.gen.ts";

export type { components, operations, paths } from "./openapi.gen.ts";

/** A typed Curate API client: `client.GET("/feeds/{id}", { params: { path: { id } } })`. */
export type CurateClient = Client<paths>;

export interface CurateClientOptions {
  /** Where the Curate server is, e.g. `https://curate.example` (its API lives under `/api`). */
  baseUrl: string;
  /** A personal API token made in Settings → API tokens (`curate_pat_…`). */
  token: string;
  /** Another fetch (a proxy, a test's); the global one otherwise. */
  fetch?: (request: Request) => Promise<Response>;
}

const TOKEN_PREFIX = "curate_pat_";

/** A client that sends the token with every request; a request with a token needs no cookie and no Origin. */
export function createCurateClient(options: CurateClientOptions): CurateClient {
  if (!options.token.startsWith(TOKEN_PREFIX)) {
    throw new Error(`A Curate API token starts with "${TOKEN_PREFIX}"; make one in Settings → API tokens.`);
  }
  return createClient<paths>({
    baseUrl: new URL("/api", options.baseUrl).href,
    headers: { Authorization: `Bearer ${options.token}` },
    fetch: options.fetch,
  });
}

/** A refusal or failure of the API, with the status and the envelope's code, worded as the web app words it. */
export class CurateApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  constructor(status: number, code: string | null, message: string) {
    super(`API request failed: ${status} ${message}`);
    this.name = "CurateApiError";
    this.status = status;
    this.code = code;
  }
}

interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * The `data` of a successful answer, or a `CurateApiError` thrown for any other: `const feeds = dataOf(await
 * client.GET("/feeds"))`.
 */
export function dataOf<D extends { data: unknown }>(answer: Answer<D>): D["data"] {
  if (answer.data !== undefined && answer.response.ok) return answer.data.data;
  const error = (answer.error as { error?: { code?: string; message?: string } } | undefined)?.error;
  throw new CurateApiError(
    answer.response.status,
    error?.code ?? null,
    error?.message ?? answer.response.statusText,
  );
}
