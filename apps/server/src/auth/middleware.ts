import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../config/env.ts";
import type { AppBindings } from "../context.ts";
import type { Database } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { SESSION_COOKIE, userForSessionCookie } from "./sessions.ts";

const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Mutations anyone may call: signing in needs no session yet, and signing out must always work. */
export const PUBLIC_MUTATIONS = new Set([
  "/api/auth/initiate-login",
  "/api/auth/verify-login",
  "/api/auth/logout",
]);

export function isMutation(method: string) {
  return MUTATING_METHODS.has(method.toUpperCase());
}

/** Reads the session cookie once per request and exposes the signed-in user (or null). */
export function sessionLoader(db: Database, env: AppEnv): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    c.set("user", cookie ? await userForSessionCookie(db, env.SESSION_SECRET, cookie) : null);
    await next();
  };
}

/** Reads that act (they mint something or spend a budget) are guarded like mutations. */
export const ACTING_READS = new Set(["/api/upload/get-auth-key"]);

/**
 * Whether a browser request comes from this app's own pages: its Origin is this deployment's (scheme, host and port
 * alike) or the request's own origin; for reads that act, a browser's `Sec-Fetch-Site: same-origin` says the same.
 */
function isSameOrigin(c: Context, env: AppEnv, origin: string | undefined): boolean {
  if (!origin) return c.req.header("sec-fetch-site") === "same-origin";
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  return (
    originUrl.origin === new URL(env.PUBLIC_URL).origin || originUrl.origin === new URL(c.req.url).origin
  );
}

/**
 * The one guard every mutating API route passes: a session is required (401) except for the sign-in
 * calls, and a cookie-authenticated mutation must come from our own origin (403) against CSRF. `callbacks` are
 * paths another service calls (Telegram's webhook): no session and no browser, so the route checks the caller's
 * own credential instead.
 */
export function mutationGuard(
  env: AppEnv,
  callbacks: ReadonlySet<string> = new Set(),
): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const acting = ACTING_READS.has(c.req.path);
    if (!isMutation(c.req.method) && !acting) return next();
    if (callbacks.has(c.req.path)) return next();
    const origin = c.req.header("origin");
    if (PUBLIC_MUTATIONS.has(c.req.path)) {
      if (origin && !isSameOrigin(c, env, origin)) throw AppError.forbidden("Cross-origin request refused.");
      return next();
    }
    if (!c.get("user")) throw AppError.unauthenticated();
    if (!acting && !origin) throw AppError.forbidden("Cross-origin request refused.");
    if (!isSameOrigin(c, env, origin)) throw AppError.forbidden("Cross-origin request refused.");
    return next();
  };
}

export function requireUser(c: Context<AppBindings>) {
  const user = c.get("user");
  if (!user) throw AppError.unauthenticated();
  return user;
}
