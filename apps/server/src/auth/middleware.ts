import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { Logger } from "pino";
import {
  type ApiCredential,
  credentialForToken,
  REFUSED_TOKEN_MESSAGES,
  recordTokenUse,
} from "../api-tokens/service.ts";
import type { AppEnv } from "../config/env.ts";
import type { AppBindings } from "../context.ts";
import type { Database } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { clientAddress, rateLimited } from "../limits/middleware.ts";
import { consumeLimit } from "../limits/service.ts";
import { SESSION_COOKIE, userForSessionCookie } from "./sessions.ts";

const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Mutations anyone may call: signing in needs no session yet, and signing out must always work; email readers
 * have no account (their links' tokens are the credential, checked by the routes).
 */
export const PUBLIC_MUTATIONS = new Set([
  "/api/auth/initiate-login",
  "/api/auth/verify-login",
  "/api/auth/logout",
  "/api/email/subscribe",
  "/api/email/confirm",
  "/api/email/unsubscribe",
  "/api/email/subscription",
]);

export function isMutation(method: string) {
  return MUTATING_METHODS.has(method.toUpperCase());
}

/** The scheme of an API token; other schemes (a proxy's Basic auth in front of a staging site) are not ours. */
const BEARER_SCHEME = /^Bearer(?:\s|$)/i;
const BEARER = /^Bearer +(\S+)$/i;

/**
 * The token a `Bearer` header presents. A refused one is a 401 saying why; refusals count against the address's
 * sign-in budget, so guessing tokens is paced like guessing sign-ins.
 */
async function presentedToken(
  c: Context<AppBindings>,
  db: Database,
  env: AppEnv,
  authorization: string,
): Promise<ApiCredential> {
  const secret = BEARER.exec(authorization.trim())?.[1];
  const credential = secret ? await credentialForToken(db, secret) : "malformed";
  if (typeof credential !== "string") return credential;
  const limit = await consumeLimit(
    db,
    `sign-in:${clientAddress(c, env.TRUST_PROXY)}`,
    env.AUTH_RATE_LIMIT_PER_MINUTE,
    60_000,
  );
  if (!limit.allowed) {
    throw rateLimited(
      "Too many refused API tokens from this address. Please wait a minute.",
      limit.retryAfterMs,
      c,
    );
  }
  c.header("WWW-Authenticate", 'Bearer realm="curate", error="invalid_token"');
  throw new AppError("UNAUTHENTICATED", REFUSED_TOKEN_MESSAGES[credential]);
}

/**
 * Finds who a request is from, once: the session cookie's user, or — when the request carries an
 * `Authorization: Bearer` header — the API token's credential. A request with a token is judged by it alone: its
 * cookies are never read, so it needs no CSRF check and cannot borrow a browser's session. The token's user is handed to a route only by the
 * route's scope guard (auth/scopes.ts). Changes made with a token are noted in its owner's private activity.
 */
export function sessionLoader(db: Database, env: AppEnv, logger: Logger): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    c.set("apiToken", null);
    const authorization = c.req.header("authorization");
    if (authorization === undefined || !BEARER_SCHEME.test(authorization.trim())) {
      const cookie = getCookie(c, SESSION_COOKIE);
      c.set("user", cookie ? await userForSessionCookie(db, env.SESSION_SECRET, cookie) : null);
      return next();
    }
    c.set("user", null);
    const token = await presentedToken(c, db, env, authorization);
    c.set("apiToken", token);
    await next();
    const route = c.get("apiRoute");
    if (!route || !(isMutation(c.req.method) || ACTING_READS.has(c.req.path))) return;
    const use = {
      tokenId: token.id,
      userId: token.user.id,
      method: c.req.method,
      route,
      status: c.res.status,
    };
    // The change is made and answered: a lost note must not turn its answer into an error.
    await recordTokenUse(db, use).catch((err) =>
      logger.error({ err, reqId: c.get("requestId"), tokenId: token.id }, "token use not recorded"),
    );
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
 * The one guard every mutating API route passes: a session or an API token is required (401) except for the sign-in
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
    // A token is no browser's ambient credential: the route's scope guard decides.
    if (c.get("apiToken")) return next();
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
