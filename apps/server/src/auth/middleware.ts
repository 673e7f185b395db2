import { getConnInfo } from "@hono/node-server/conninfo";
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

function isSameOrigin(c: Context, env: AppEnv, origin: string) {
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  if (originUrl.origin === new URL(env.PUBLIC_URL).origin) return true;
  const host = c.req.header("host");
  return host !== undefined && originUrl.host === host;
}

/**
 * The one guard every mutating API route passes: a session is required (401) except for the sign-in
 * calls, and a cookie-authenticated mutation must come from our own origin (403) against CSRF.
 */
export function mutationGuard(env: AppEnv): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    if (!isMutation(c.req.method)) return next();
    const origin = c.req.header("origin");
    if (PUBLIC_MUTATIONS.has(c.req.path)) {
      if (origin && !isSameOrigin(c, env, origin)) throw AppError.forbidden("Cross-origin request refused.");
      return next();
    }
    if (!c.get("user")) throw AppError.unauthenticated();
    if (!origin || !isSameOrigin(c, env, origin)) throw AppError.forbidden("Cross-origin request refused.");
    return next();
  };
}

export function requireUser(c: Context<AppBindings>) {
  const user = c.get("user");
  if (!user) throw AppError.unauthenticated();
  return user;
}

function clientIp(c: Context) {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** Fixed one-minute windows per client address; enough to blunt guessing against the auth endpoints. */
export function rateLimit(limitPerMinute: number): MiddlewareHandler<AppBindings> {
  const windows = new Map<string, { start: number; count: number }>();
  return async (c, next) => {
    const now = Date.now();
    const key = clientIp(c);
    let window = windows.get(key);
    if (!window || now - window.start >= 60_000) {
      if (windows.size > 10_000) windows.clear();
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > limitPerMinute) {
      c.header("Retry-After", String(Math.ceil((window.start + 60_000 - now) / 1000)));
      throw new AppError("RATE_LIMITED", "Too many sign-in attempts. Please wait a minute and try again.");
    }
    return next();
  };
}
