import type { Logger } from "pino";
import type { AppEnv } from "./config/env.ts";
import type { DatabaseHandle } from "./db/index.ts";
import type { User } from "./db/schema.ts";
import type { ChangeNotifier } from "./http/changes.ts";
import { createValidatingRouter } from "./http/router.ts";
import type { LogSelfCheck } from "./operations/log-check.ts";
import type { RunnerDeps } from "./processing/runner.ts";
import type { Telemetry } from "./telemetry/telemetry.ts";

/** What the app is built from; every route module is given these. */
export interface AppDeps {
  database: DatabaseHandle;
  env: AppEnv;
  logger: Logger;
  version: string;
  changes: ChangeNotifier;
  /** The composition's metrics and tracer (its worker reports into the same). */
  telemetry: Telemetry;
  /** The pipeline's runner, for dry runs run within a request (previews, config tests, replays). */
  runner?: RunnerDeps;
  /** The moderation log's self-check, when one is registered (the Operations page shows it). */
  logSelfCheck?: LogSelfCheck;
}

/** What a request carries through the middleware: its id and the session's user (or null). */
export interface AppBindings {
  Variables: { requestId: string; user: User | null };
}

export function createRouter() {
  return createValidatingRouter<AppBindings>();
}

export type Router = ReturnType<typeof createRouter>;
