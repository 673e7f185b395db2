import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { Logger } from "pino";
import { type App, createApp } from "../src/app.ts";
import { type AppEnv, loadEnv } from "../src/config/env.ts";
import type { DatabaseHandle } from "../src/db/index.ts";
import { enqueueOnlyInbox } from "../src/fediverse/queue.ts";
import { createChangeNotifier } from "../src/http/changes.ts";
import { closeNodeServer, prepareNodeServer } from "../src/http/node-server.ts";
import { createIntake, type Intake } from "../src/intake/runtime.ts";
import { createLogger } from "../src/logger.ts";
import { runnerDeps } from "../src/processing/runner-deps.ts";
import { startTelemetry, type Telemetry } from "../src/telemetry/telemetry.ts";
import { startWorker, type WorkerHost, type WorkerOptions } from "../src/worker/host.ts";

export interface ServedApp {
  app: App;
  intake: Intake;
  env: AppEnv;
  /** The app's own metrics and tracer (the worker's too), as `serve` makes them from the environment. */
  telemetry: Telemetry;
  baseUrl: string;
  /** The worker role on the same database, when asked for. */
  worker: WorkerHost | null;
  close(): Promise<void>;
}

export interface ServeOptions {
  version?: string;
  /** Runs the worker role too (processing and intake), with these plugins besides the built-ins. */
  worker?: Pick<WorkerOptions, "extraPlugins" | "feedSecrets" | "clock" | "logSelfCheck">;
  /** The app's logger; a silent one unless a test wants to read what is logged. */
  logger?: Logger;
  /** What answers requests: the app's own fetch unless a benchmark puts routes of its own in front of it. */
  fetch?: (app: App) => (request: Request) => Response | Promise<Response>;
}

/**
 * The real app on an ephemeral 127.0.0.1 port over `database`, as `serve` builds it (without the worker), with
 * its own data folder. Tests and benchmarks talk to it over HTTP.
 */
export async function serveApp(
  database: DatabaseHandle,
  envOverrides: Record<string, string> = {},
  options: ServeOptions = {},
): Promise<ServedApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "curate-data-"));
  const env = loadEnv({
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "silent",
    // Every answer of a test server is checked against its route's contract (the harness's and the files' own), so
    // no test passes on an answer the API's clients would not parse.
    ...(envOverrides.NODE_ENV === "test" ? { CHECK_RESPONSE_CONTRACTS: "true" } : {}),
    ...envOverrides,
  });
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  const changes = createChangeNotifier();
  const telemetry = await startTelemetry(env, logger);
  const intake = createIntake(database.db, env, logger, {
    telemetry,
    notifyChanged: changes.notify,
    clock: options.worker?.clock,
  });
  // Dry runs in requests use the same extra plugins and feed secrets as the test's worker.
  const runner = options.worker
    ? runnerDeps({ database, env, logger, telemetry, ...options.worker })
    : undefined;
  const fediverseInbox = enqueueOnlyInbox(database, logger);
  const app = createApp({
    database,
    env,
    logger,
    version: options.version ?? "test",
    intake,
    changes,
    telemetry,
    runner,
    logSelfCheck: options.worker?.logSelfCheck,
    fediverseInbox: fediverseInbox.queue,
  });
  const worker = options.worker
    ? await startWorker({ database, env, intake, logger, telemetry, ...options.worker })
    : null;
  // Port 0 (any free one) unless the test chose one: a server whose PUBLIC_URL names its own port (federation).
  const server = serve({ fetch: options.fetch?.(app) ?? app.fetch, port: env.PORT, hostname: "127.0.0.1" });
  prepareNodeServer(server);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    app,
    intake,
    env,
    telemetry,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    worker,
    async close() {
      // Every test is done with the server by now: nothing in flight deserves a grace period.
      await closeNodeServer(server, 0);
      await fediverseInbox.close();
      await worker?.stop();
      await telemetry.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
