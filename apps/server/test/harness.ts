import { inject } from "vitest";
import type { App } from "../src/app.ts";
import type { AppEnv } from "../src/config/env.ts";
import type { Database, DatabaseHandle } from "../src/db/index.ts";
import type { Intake } from "../src/intake/runtime.ts";
import type { Telemetry } from "../src/telemetry/telemetry.ts";
import type { WorkerHost } from "../src/worker/host.ts";
import { openScratchDatabase, type ScratchDatabase } from "./databases.ts";
import { type ServeOptions, serveApp } from "./serve-app.ts";

export interface TestServer {
  app: App;
  intake: Intake;
  /** The worker role, when the server was started with one. */
  worker: WorkerHost | null;
  baseUrl: string;
  db: Database;
  database: DatabaseHandle;
  env: AppEnv;
  /** The app's own metrics and tracer, shared with its worker. */
  telemetry: Telemetry;
  /** fetch against the running app, path relative to its base URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** fetch + JSON body; tests assert on its shape, so it is left loosely typed. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions, not types
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

/** A fresh copy of the migrated template database, on the driver this run tests (PostgreSQL with TEST_DATABASE_URL). */
export function freshDatabase(): Promise<ScratchDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  const pgTemplate = inject("pgTemplateDatabase");
  if (url && pgTemplate) return openScratchDatabase("postgres", { adminUrl: url, template: pgTemplate });
  return openScratchDatabase("pglite", { template: inject("pgliteTemplateDir") });
}

/** Starts the real app on an ephemeral port over a fresh database; tests talk to it over HTTP. */
export async function startTestServer(
  envOverrides: Record<string, string> = {},
  options: Pick<ServeOptions, "worker" | "logger"> = {},
): Promise<TestServer> {
  const { handle, dispose } = await freshDatabase();
  // Tests write through the database directly as well as the API, so the read cache is off unless a test asks.
  // A worker checks heartbeats every second and polls intake only when a test asks (runIntakeNow).
  const environment = {
    NODE_ENV: "test",
    READ_CACHE_TTL_MS: "0",
    WORKER_MONITOR_INTERVAL_SECONDS: "1",
    PROCESSING_HEARTBEAT_SECONDS: "10",
    INTAKE_INTERVAL_MS: "3600000",
    ...envOverrides,
  };
  const served = await serveApp(
    handle,
    {
      // The fakes have no rate limit: a tenth of each channel's pace keeps sends ordered and spaced, in less time.
      // Only a test server may go faster (a file that starts a development or production server keeps the pace);
      // the files about pacing itself set 100.
      ...(environment.NODE_ENV === "test" ? { CHANNEL_PACING_PERCENT: "10" } : {}),
      ...environment,
    },
    { worker: options.worker, logger: options.logger },
  );
  const request = (path: string, init?: RequestInit) => fetch(`${served.baseUrl}${path}`, init);
  return {
    app: served.app,
    intake: served.intake,
    worker: served.worker,
    baseUrl: served.baseUrl,
    db: handle.db,
    database: handle,
    env: served.env,
    telemetry: served.telemetry,
    request,
    async json<T>(path: string, init?: RequestInit) {
      const response = await request(path, init);
      return { status: response.status, body: (await response.json()) as T, headers: response.headers };
    },
    async close() {
      await served.close();
      await dispose();
    },
  };
}

/** A response's JSON body, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are checked by assertions, not types
export const readJson = (response: Response): Promise<any> => response.json();

/**
 * Waits for a state the system reaches on its own (a job finishing in the worker): polls `check` until it holds.
 * The limit only stops a test that would otherwise hang; it is generous so a busy machine never fails a test.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
