import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../config/env.ts";
import type { AppBindings } from "../context.ts";
import type { Database } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { consumeLimit } from "./service.ts";

const MINUTE = 60_000;

/**
 * The client's address: the socket's, or — behind `TRUST_PROXY` proxies — the one the outermost trusted proxy
 * saw, read from the right of X-Forwarded-For (entries further left are whatever the client claimed).
 */
export function clientAddress(c: Context, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const address = hops[hops.length - trustProxy];
    if (address) return address.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

export function rateLimited(message: string, retryAfterMs: number, c: Context) {
  c.header("Retry-After", String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return new AppError("RATE_LIMITED", message);
}

/** Sign-in calls per client address and minute, counted in the database across every API process. */
export function signInLimit(db: Database, env: AppEnv): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const address = clientAddress(c, env.TRUST_PROXY);
    const result = await consumeLimit(db, `sign-in:${address}`, env.AUTH_RATE_LIMIT_PER_MINUTE, MINUTE);
    if (!result.allowed) {
      throw rateLimited(
        "Too many sign-in attempts. Please wait a minute and try again.",
        result.retryAfterMs,
        c,
      );
    }
    return next();
  };
}

/**
 * Writes per signed-in account and minute: whatever one account can ask the server to do is paced, in the app and
 * with its API tokens alike (one budget for both).
 */
export function writeLimit(db: Database, env: AppEnv): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const user = c.get("user") ?? c.get("apiToken")?.user;
    if (!user || !["POST", "PUT", "PATCH", "DELETE"].includes(c.req.method)) return next();
    if (c.req.path === "/api/auth/logout") return next();
    const result = await consumeLimit(db, `writes:${user.id}`, env.WRITE_RATE_LIMIT_PER_MINUTE, MINUTE);
    if (!result.allowed) {
      throw rateLimited(
        "Too many changes in a minute from this account. Please slow down.",
        result.retryAfterMs,
        c,
      );
    }
    return next();
  };
}
