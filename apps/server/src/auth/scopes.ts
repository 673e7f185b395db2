import { AsyncLocalStorage } from "node:async_hooks";
import type { RouteScope } from "@curate/core";
import type { RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../bindings.ts";
import { AppError } from "../errors.ts";
import type { SecurityRequirement } from "../http/router.ts";

/** The OpenAPI names of the two ways to authenticate (app.ts describes them in the document). */
export const API_TOKEN_SCHEME = "apiToken";
export const SESSION_SCHEME = "session";

const acting = new AsyncLocalStorage<{ tokenId: string }>();

/**
 * The token the current request acts with, or null (a session, a job, intake). The moderation log reads it to say
 * "via API token" whatever service writes the entry, so no service has to be told.
 */
export function actingApiToken(): string | null {
  return acting.getStore()?.tokenId ?? null;
}

/**
 * The guard every documented route runs first (docs/decisions/0029). A request with an API token reaches the route
 * only if the token holds the route's scope, and only then does the route see the token's user: a route that is
 * not guarded (none is documented that way) sees such a request as anonymous. Sessions pass untouched: their
 * permissions are the routes' own checks.
 */
export function scopeGuard(
  scope: RouteScope,
  route: { method: string; path: string },
): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const token = c.get("apiToken");
    if (!token) return next();
    c.set("apiRoute", route.path);
    if (scope === "session") {
      throw AppError.forbidden("API tokens cannot do this; sign in to Curate in the browser instead.");
    }
    if (!token.scopes.includes(scope)) {
      throw AppError.forbidden(`This API token does not have the "${scope}" scope.`);
    }
    c.set("user", token.user);
    await acting.run({ tokenId: token.id }, next);
  };
}

/**
 * How the OpenAPI document states a route's access: a token with its scope or a session, or — where the route
 * documents no 401 — nobody at all. `session` routes take no token.
 */
export function routeSecurity(scope: RouteScope, route: RouteConfig): SecurityRequirement[] {
  const anonymous = !Object.keys(route.responses).includes("401");
  return [
    ...(scope === "session" ? [] : [{ [API_TOKEN_SCHEME]: [scope] }]),
    { [SESSION_SCHEME]: [] },
    ...(anonymous ? [{}] : []),
  ];
}
