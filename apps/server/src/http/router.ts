import { OpenAPIHono } from "@hono/zod-openapi";
import type { Logger } from "pino";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { DatabaseHandle } from "../db/index.ts";
import type { Intake } from "../intake/runtime.ts";
import { AppError } from "./errors.ts";

/** What every route module is given: the database, the parsed environment and the logger. */
export interface AppDeps {
  database: DatabaseHandle;
  intake: Intake;
  env: AppEnv;
  logger: Logger;
  version: string;
}

export interface AppBindings {
  Variables: { requestId: string; user: User | null };
}

const TARGET_NAMES: Record<string, string> = {
  query: "query parameters",
  json: "request body",
  param: "path parameters",
  form: "form data",
  header: "headers",
  cookie: "cookies",
};

/** A router whose contract violations become VALIDATION_ERROR envelopes through the one error handler. */
export function createRouter() {
  return new OpenAPIHono<AppBindings>({
    defaultHook: (result) => {
      if (!result.success) throw AppError.fromZod(result.error, TARGET_NAMES[result.target] ?? result.target);
    },
  });
}

export type Router = ReturnType<typeof createRouter>;
