type QueryValue = string | number | boolean | null | undefined;

export type Query = Record<string, QueryValue>;

/** A non-OK answer from the API; carries the HTTP status and the parsed body (envelope or raw text). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, detail: string, body: unknown) {
    super(`API request failed: ${status} ${detail}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ""}`;
}

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, such as a write's `If-Match` precondition. */
  headers?: Record<string, string>;
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

let currentFetch: () => Fetch = () => fetch;

/**
 * Where `api()` sends its requests: the browser's fetch, unless the server renders a page,
 * which answers this site's own addresses in-process (anonymously) for the request it is rendering.
 */
export function setApiFetch(resolve: () => Fetch): void {
  currentFetch = resolve;
}

/** Calls the API and returns the envelope's `data`; anything but a successful envelope throws an ApiError. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", query, body, signal, headers } = options;
  const response = await currentFetch()(apiUrl(path, query), {
    method,
    signal,
    credentials: "same-origin",
    headers: {
      ...(body === undefined ? { accept: "application/json" } : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = await readBody(response);
  if (!response.ok || !isSuccessEnvelope(payload)) {
    throw new ApiError(response.status, errorMessage(payload, response), payload);
  }
  return payload.data as T;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isSuccessEnvelope(payload: unknown): payload is { success: true; data: unknown } {
  return (
    typeof payload === "object" && payload !== null && (payload as { success?: unknown }).success === true
  );
}

function errorMessage(payload: unknown, response: Response): string {
  if (typeof payload === "object" && payload !== null) {
    const message = (payload as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string" && message) return message;
  }
  return response.statusText || "Unexpected response";
}

/**
 * What the server said went wrong (the envelope's `error.message`), for toasts that quote it after their own
 * words; otherwise the error's own message, or null when there is nothing to say.
 */
export function serverMessage(error: unknown): string | null {
  if (error instanceof ApiError && typeof error.body === "object" && error.body !== null) {
    const message = (error.body as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string" && message) return message;
  }
  return error instanceof Error && error.message ? error.message : null;
}
