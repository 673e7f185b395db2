import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { AppError } from "../errors.ts";

const TARGET_NAMES: Record<string, string> = {
  query: "query parameters",
  json: "request body",
  param: "path parameters",
  form: "form data",
  header: "headers",
  cookie: "cookies",
};

/**
 * A router whose contract violations become VALIDATION_ERROR envelopes through the one error handler. A route that
 * declares a body requires it: without that, a request with no body (or another media type) would skip the
 * body's contract and reach the handler with nothing validated.
 */
export function createValidatingRouter<E extends Env>() {
  const router = new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) throw AppError.fromZod(result.error, TARGET_NAMES[result.target] ?? result.target);
    },
  });
  const openapi = router.openapi.bind(router);
  router.openapi = ((route: Parameters<typeof openapi>[0], ...rest: unknown[]) => {
    const body = route.request?.body;
    const required = body
      ? { ...route, request: { ...route.request, body: { required: true, ...body } } }
      : route;
    return (openapi as (...args: unknown[]) => unknown)(required, ...rest);
  }) as typeof router.openapi;
  return router;
}
