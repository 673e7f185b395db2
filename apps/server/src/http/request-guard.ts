import type { MiddlewareHandler } from "hono";
import { AppError } from "../errors.ts";
import { readBodyUpTo } from "./bounded-body.ts";

/** Bodies of JSON routes: a feed config is the largest thing anyone sends, and it stays far below this. */
export const MAX_JSON_BODY_BYTES = 512 * 1024;
/** Nesting deeper than this is no real config or request, only a way to exhaust a recursive walk. */
export const MAX_JSON_DEPTH = 32;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;|$)/i;

/** Text a PostgreSQL text column (and any sane client) refuses: NUL, and UTF-16 halves without their pair. */
export function isUnsafeText(text: string): boolean {
  return text.includes("\u0000") || !text.isWellFormed();
}

function checkValue(value: unknown, depth: number): string | null {
  if (depth > MAX_JSON_DEPTH) return `nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (typeof value === "string")
    return isUnsafeText(value) ? "a text holds a NUL or an unpaired surrogate" : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = checkValue(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (isUnsafeText(key)) return "a key holds a NUL or an unpaired surrogate";
      const problem = checkValue(item, depth + 1);
      if (problem) return problem;
    }
  }
  return null;
}

async function readLimited(request: Request, limit: number): Promise<string | null> {
  const bytes = await readBodyUpTo(request, limit);
  return bytes && new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

/**
 * The one guard in front of every API route (DESIGN §3, "bad input is a 4xx, never a 500"): paths and queries with
 * NUL, unpaired surrogates or broken percent-encoding are refused; a body sent to a JSON route must say it is JSON
 * (415), stay under the size limit (413), parse, and hold no NUL, unpaired surrogate or absurd nesting (400). The
 * parsed body is handed on, so routes never read it twice. `rawBodyPaths` (exact paths) keep their own limits.
 */
export function requestGuard(options: { rawBodyPaths: string[] }): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    let decodedPath: string;
    try {
      decodedPath = decodeURIComponent(url.pathname);
    } catch {
      throw AppError.validation("The address is not valid percent-encoding.");
    }
    if (isUnsafeText(decodedPath))
      throw AppError.validation("The address holds a NUL or an unpaired surrogate.");
    for (const [key, value] of url.searchParams) {
      if (isUnsafeText(key) || isUnsafeText(value)) {
        throw AppError.validation(
          `Query parameter "${key.slice(0, 40)}" holds a NUL or an unpaired surrogate.`,
        );
      }
    }
    // Exactly those paths: a JSON route beneath one (/api/upload/pinned) is guarded like any other.
    if (!MUTATING.has(c.req.method) || options.rawBodyPaths.includes(url.pathname)) {
      return next();
    }
    // HTTP/1.1 frames a body by Content-Length or Transfer-Encoding only (RFC 9112 §6.3); the Node adapter hands
    // every DELETE a stream even when neither is sent, as browsers do for a bodiless fetch.
    const length = c.req.header("content-length");
    const hasBody =
      c.req.raw.body !== null &&
      (c.req.header("transfer-encoding") !== undefined || (length !== undefined && length !== "0"));
    if (!hasBody) return next();
    const type = c.req.header("content-type") ?? "";
    if (!JSON_TYPE.test(type)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the request body as application/json.");
    }
    const text = await readLimited(c.req.raw, MAX_JSON_BODY_BYTES);
    if (text === null) {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KB.`,
      );
    }
    if (text.trim() === "") return next();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw AppError.validation("Request body is not valid JSON.");
    }
    const problem = checkValue(parsed, 0);
    if (problem) throw AppError.validation(`The request body is refused: ${problem}.`);
    // Routes read the body through Hono's request cache; hand it the parsed value instead of the spent stream.
    const cache = (c.req as unknown as { bodyCache: Record<string, Promise<unknown>> }).bodyCache;
    cache.json = Promise.resolve(parsed);
    cache.text = Promise.resolve(text);
    return next();
  };
}
