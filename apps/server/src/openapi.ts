import { createApp } from "./app.ts";
import { loadEnv } from "./config/env.ts";
import type { DatabaseHandle } from "./db/index.ts";
import { enqueueOnlyInbox } from "./fediverse/queue.ts";
import { createChangeNotifier } from "./http/changes.ts";
import { createIntake } from "./intake/runtime.ts";
import { createLogger } from "./logger.ts";
import { createTelemetry } from "./telemetry/telemetry.ts";

/** Reaching this means building the document touched the database, which it must never need. */
const noDatabase = new Proxy({} as DatabaseHandle, {
  get(_target, property) {
    throw new Error(
      `The OpenAPI document was built without a database, yet it used database.${String(property)}.`,
    );
  },
});

/**
 * The OpenAPI document a production server serves at /api/openapi.json, built without a database or a data folder
 * (the routes describe themselves as they are registered): what the typed client is generated from and checked
 * against (packages/client). Production settings, so development-only routes are left out; the version is fixed so
 * that a release does not make the client look stale.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const env = loadEnv({
    NODE_ENV: "production",
    PUBLIC_URL: "https://curate.example",
    SESSION_SECRET: "openapi-document-only-not-a-secret",
    LOG_SIGNING_KEY: Buffer.alloc(32).toString("base64"),
    LOG_LEVEL: "silent",
  });
  const logger = createLogger(env.LOG_LEVEL);
  const database = { db: noDatabase } as unknown as DatabaseHandle;
  const telemetry = createTelemetry();
  const intake = createIntake(database.db, env, logger, { telemetry });
  const app = createApp({
    database,
    env,
    logger,
    version: "client",
    intake,
    changes: createChangeNotifier(),
    telemetry,
    // Never opened: this app answers one request for its own document.
    fediverseInbox: enqueueOnlyInbox(database, logger).queue,
  });
  const response = await app.request("/api/openapi.json");
  if (!response.ok) throw new Error(`The OpenAPI document could not be built: ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}
