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

/** A router whose contract violations become VALIDATION_ERROR envelopes through the one error handler. */
export function createValidatingRouter<E extends Env>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) throw AppError.fromZod(result.error, TARGET_NAMES[result.target] ?? result.target);
    },
  });
}
