import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Env, Handler, MiddlewareHandler } from "hono";
import { AppError } from "../errors.ts";
import { breachError, responseBreach } from "./response-contracts.ts";

const TARGET_NAMES: Record<string, string> = {
  query: "query parameters",
  json: "request body",
  param: "path parameters",
  form: "form data",
  header: "headers",
  cookie: "cookies",
};

/** An OpenAPI security requirement: scheme name → the scopes (roles, in OpenAPI 3.1) it needs. */
export type SecurityRequirement = Record<string, string[]>;

/**
 * How a router's routes are guarded, given by whoever builds routers (context.ts): the guard each route runs before
 * its validators and handler, and how the OpenAPI document describes it. The router knows no scopes itself; it only
 * makes sure no route it registers goes without both.
 */
export interface RouteAccess<E extends Env, S extends string> {
  /** The scope of a route that declares none. */
  scopeOf(route: { method: string; path: string }): S;
  guard(scope: S, route: { method: string; path: string }): MiddlewareHandler<E>;
  security(scope: S, route: RouteConfig): SecurityRequirement[];
  /**
   * Whether answers are checked against the responses their routes declare (response-contracts.ts): test servers
   * only (CHECK_RESPONSE_CONTRACTS). Decided when the router is built, so a production route carries no check.
   */
  checksResponses?: boolean;
}

/** A route's own scope, when it differs from what its family declares for its method (an acting read). */
export interface Scoped<S extends string> {
  scope?: S;
}

/**
 * A router whose contract violations become VALIDATION_ERROR envelopes through the one error handler. A route that
 * declares a body requires it: without that, a request with no body (or another media type) would skip the
 * body's contract and reach the handler with nothing validated. Every route is guarded by `access`: its scope is
 * checked before anything else runs, and the OpenAPI document lists it.
 */
export function createValidatingRouter<E extends Env, S extends string>(access: RouteAccess<E, S>) {
  const router = new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) throw AppError.fromZod(result.error, TARGET_NAMES[result.target] ?? result.target);
    },
  });
  /**
   * Behind the guard, so what it checks is the route's own answer (its validators, middleware and handler). A breach
   * replaces the answer with an INTERNAL_ERROR naming the route and the fields, and is written to stderr too: test
   * servers log nothing, and the test runner prints stderr beside the test that made the request.
   */
  const contract =
    (route: RouteConfig): MiddlewareHandler<E> =>
    async (c, next) => {
      await next();
      const breach = await responseBreach(route, c.res);
      if (!breach) return;
      const error = breachError(breach);
      console.error(error.message);
      throw error;
    };
  const guarded = (route: RouteConfig & Scoped<S>) => {
    const { scope: declared, ...rest } = route;
    const scope = declared ?? access.scopeOf(route);
    const own = rest.middleware ? [rest.middleware].flat() : [];
    return {
      ...rest,
      security: access.security(scope, rest),
      middleware: [
        access.guard(scope, rest),
        ...(access.checksResponses ? [contract(rest)] : []),
        ...own,
      ] as MiddlewareHandler[],
    };
  };
  const openapi = router.openapi.bind(router);
  router.openapi = ((route: RouteConfig & Scoped<S>, ...rest: unknown[]) => {
    const body = route.request?.body;
    const required = body
      ? { ...route, request: { ...route.request, body: { required: true, ...body } } }
      : route;
    return (openapi as (...args: unknown[]) => unknown)(guarded(required), ...rest);
  }) as typeof router.openapi;
  /**
   * A route documented like the others and answered by hand (a stream the typed handlers cannot answer), guarded
   * the same way.
   */
  const documented = (route: RouteConfig & Scoped<S>, handler: Handler<E>) => {
    const { middleware, ...config } = guarded(route);
    router.openAPIRegistry.registerPath(config);
    const path = config.path.replaceAll(/\/{(.+?)}/g, "/:$1");
    for (const guard of middleware) router.on(config.method.toUpperCase(), path, guard);
    router.on(config.method.toUpperCase(), path, handler);
  };
  return Object.assign(router, { documented });
}
