import type { RouteScope } from "@curate/core";
import type { Logger } from "pino";
import { routeSecurity, scopeGuard } from "./auth/scopes.ts";
import type { AppBindings } from "./bindings.ts";
import type { AppEnv } from "./config/env.ts";
import type { DatabaseHandle } from "./db/index.ts";
import type { ChangeNotifier } from "./http/changes.ts";
import { createValidatingRouter } from "./http/router.ts";
import type { LogSelfCheck } from "./operations/log-check.ts";
import type { DryRunPort } from "./processing/dry-run-port.ts";
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
  /** Dry runs run within a request (previews, config tests, replays): the one thing routes ask of the pipeline. */
  dryRuns: DryRunPort;
  /** The moderation log's self-check, when one is registered (the Operations page shows it). */
  logSelfCheck?: LogSelfCheck;
}

/**
 * What a request carries through the middleware: its id; the session's user (or null); the API token it was sent
 * with (or null); and the documented route its guard matched (for a token's private activity).
 */
export type { AppBindings };

/**
 * What a route family lets a personal API token do (docs/decisions/0029). Reads always need `read`; each family
 * names the scope its writes need, and a route whose kind differs from its method's (a read that acts) names its
 * own with `scope`.
 */
export interface RouteFamily {
  writes: RouteScope;
}

/** Built with the process's setting for checking answers against their contracts (test servers only). */
export function createRouter(family: RouteFamily, env: Pick<AppEnv, "CHECK_RESPONSE_CONTRACTS">) {
  return createValidatingRouter<AppBindings, RouteScope>({
    scopeOf: (route) => (route.method.toLowerCase() === "get" ? "read" : family.writes),
    guard: scopeGuard,
    security: routeSecurity,
    checksResponses: env.CHECK_RESPONSE_CONTRACTS,
  });
}

export type Router = ReturnType<typeof createRouter>;
