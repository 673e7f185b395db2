import type { Context, MiddlewareHandler } from "hono";
import type { Telemetry } from "./telemetry.ts";
import { SpanKind, withRootSpan } from "./tracing.ts";

/** Methods as a label: anything else (a made-up method) is `OTHER`. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The route template that answered (`/api/feeds/:feedId`), never the raw path: the first matched route registered
 * for this method, so a request a middleware answered (a cached read, a refused mutation) still counts under the
 * route it was for. Wildcard fallbacks (the API's 404, the web app's pages) keep their own templates (`/api/*`, `/*`).
 */
export function routeTemplate(c: Context): string {
  const routes = c.req.matchedRoutes;
  const method = c.req.method.toUpperCase();
  const own = routes.find(
    (route) => route.method === method || (method === "HEAD" && route.method === "GET"),
  );
  const fallback = routes.findLast((route) => route.method === "ALL");
  return (own ?? fallback)?.path ?? "unmatched";
}

/**
 * Each request's span (a server span, continuing a caller's `traceparent` when it sends one) and its duration in
 * `curate_http_request_duration_seconds`, labelled by route template, method and status.
 */
export function requestTelemetry({ metrics, tracer }: Telemetry): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const method = METHODS.has(c.req.method.toUpperCase()) ? c.req.method.toUpperCase() : "OTHER";
    await withRootSpan(
      tracer,
      method,
      { "http.request.method": method, "url.path": c.req.path },
      async (span) => {
        try {
          await next();
        } finally {
          const route = routeTemplate(c);
          const status = c.res.status;
          span.updateName(`${method} ${route}`);
          span.setAttribute("http.route", route);
          span.setAttribute("http.response.status_code", status);
          metrics.observeRequest(method, route, status, (performance.now() - started) / 1000);
        }
      },
      { kind: SpanKind.SERVER, traceParent: c.req.header("traceparent") },
    );
  };
}
