import { join } from "node:path";
import { serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { createApp } from "./app.ts";
import { type AppEnv, EnvError } from "./config/env.ts";
import { type DatabaseHandle, openDatabase } from "./db/index.ts";
import { queryRows } from "./db/sql.ts";
import { enqueueOnlyInbox } from "./fediverse/queue.ts";
import { quarantineStoredSecrets } from "./feeds/quarantine.ts";
import { feedSecretCount, resealFeedSecrets } from "./feeds/secret-store.ts";
import { createChangeNotifier, shareChanges } from "./http/changes.ts";
import { closeNodeServer, prepareNodeServer } from "./http/node-server.ts";
import { createIntake } from "./intake/runtime.ts";
import { openMissingLogs } from "./moderation-log/journal.ts";
import { moderationLogSelfCheck } from "./moderation-log/service.ts";
import { seedDemoData } from "./seed/demo.ts";
import { metricsApp } from "./telemetry/routes.ts";
import { startTelemetry } from "./telemetry/telemetry.ts";
import { VERSION } from "./version.ts";

export async function openConfiguredDatabase(env: AppEnv): Promise<DatabaseHandle> {
  return openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: join(env.DATA_DIR, "pglite") },
  );
}

/** Demo data goes into an empty database on first start: by default only the embedded one. */
async function seedIfFirstStart(database: DatabaseHandle, env: AppEnv, logger: Logger) {
  const wanted = env.SEED_DEMO_DATA ?? database.driver === "pglite";
  if (!wanted) return;
  const [row] = await queryRows<{ hasFeeds: boolean }>(
    database.db,
    sql`select exists(select 1 from feeds) as "hasFeeds"`,
  );
  if (row?.hasFeeds) return;
  const started = Date.now();
  const summary = await seedDemoData(database.db, {
    uploadsDir: join(env.DATA_DIR, "uploads"),
    publicUrl: env.PUBLIC_URL,
    botHandle: env.BOT_HANDLE,
  });
  logger.info({ ...summary, ms: Date.now() - started }, "demo data seeded");
}

/**
 * Feed secrets need SECRETS_KEY: a production server without it refuses to start once any exist, rather than run
 * feeds whose credentials it cannot open. Values sealed by a key in SECRETS_KEY_PREVIOUS are re-sealed under the
 * current key (the rotation the README describes).
 */
async function checkSecretsKey(database: DatabaseHandle, env: AppEnv, logger: Logger) {
  if (!env.SECRETS_KEYS.current) {
    const stored = await feedSecretCount(database.db);
    if (stored > 0) {
      await database.close();
      throw new EnvError(
        `Invalid environment:\n  SECRETS_KEY: required: the database holds ${stored} feed secret(s) sealed with it`,
      );
    }
    return;
  }
  const { resealed, unreadable } = await resealFeedSecrets(database.db, env.SECRETS_KEYS);
  if (resealed) logger.info({ resealed }, "feed secrets re-sealed under the current SECRETS_KEY");
  if (unreadable) {
    logger.warn(
      { unreadable },
      "feed secrets that neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS opens: their owners must set them again",
    );
  }
}

/** Every base URL of an outside service the operator sets: the only non-public hosts the server may call. */
export function configuredBaseUrls(env: AppEnv): Array<string | undefined> {
  return [
    env.X_API_BASE_URL,
    env.BLUESKY_SERVICE_URL,
    env.BLUESKY_APPVIEW_URL,
    env.MASTODON_BASE_URL,
    env.TELEGRAM_API_BASE_URL,
    env.DISCORD_API_BASE_URL,
    env.NOTION_API_BASE_URL,
    env.NEAR_RPC_URL,
    env.NEAR_TESTNET_RPC_URL,
    env.AI_API_BASE_URL,
    env.CROSSPOST_API_URL,
    env.PINATA_API_URL,
    env.OTEL_EXPORTER_OTLP_ENDPOINT,
    env.ALERT_WEBHOOK_URL,
  ];
}

/** `all` serves the API and runs the worker; `api` and `worker` split them across processes sharing PostgreSQL. */
export const ROLES = ["all", "api", "worker"] as const;
export type Role = (typeof ROLES)[number];

export interface RunningServer {
  url: string | null;
  close(): Promise<void>;
}

export async function startServer(env: AppEnv, logger: Logger, role: Role = "all"): Promise<RunningServer> {
  if (role !== "all" && !env.DATABASE_URL) {
    throw new EnvError(
      `--role=${role} needs DATABASE_URL: the embedded database belongs to a single process.`,
    );
  }
  // Before anything runs, so the first request and the first poll are traced too. The app and the worker of this
  // process share it: one /metrics answers for both.
  const telemetry = await startTelemetry(env, logger);
  const database = await openConfiguredDatabase(env);
  await database.migrate();
  await checkSecretsKey(database, env, logger);
  await seedIfFirstStart(database, env, logger);
  // Configs stored before today's secret scan knew a shape are hidden and held until their owners fix them.
  await quarantineStoredSecrets(database.db, logger);
  // Feeds from before the moderation log (and demo data) start theirs with a genesis committing to their history.
  const opened = await openMissingLogs(database.db);
  if (opened) logger.info({ feeds: opened }, "moderation logs opened");
  // Processes sharing PostgreSQL hear each other's changes, so a read on one follows a write on another (0038).
  const changes =
    database.driver === "postgres"
      ? await shareChanges(database, (error) => logger.warn({ err: error }, "could not announce a change"))
      : createChangeNotifier();
  const intake = createIntake(database.db, env, logger, { telemetry, notifyChanged: changes.notify });
  // The Operations page and its alerts read the moderation logs' self-check.
  const logSelfCheck = moderationLogSelfCheck(database.db);
  // Loaded only by a role that runs it: an API-only process never loads the queue engine and the worker's passes.
  const worker =
    role === "api"
      ? null
      : await (await import("./worker/host.ts")).startWorker({
          database,
          env,
          intake,
          logger,
          telemetry,
          role,
          logSelfCheck,
        });
  const stop = () =>
    (worker ? worker.stop() : Promise.resolve())
      .then(() => changes.close())
      .then(() => database.close())
      .then(() => telemetry.shutdown());
  if (role === "worker") {
    logger.info({ driver: database.driver, version: VERSION }, "Curate worker running");
    // Its jobs and steps are counted in this process: with METRICS_TOKEN it answers /metrics (and only that).
    if (!env.METRICS_TOKEN) return { url: null, close: stop };
    const metricsServer = serve({
      fetch: metricsApp({ database, env, telemetry }).fetch,
      port: env.PORT,
      hostname: env.HOST,
    });
    prepareNodeServer(metricsServer);
    return { url: null, close: () => closeNodeServer(metricsServer).then(stop) };
  }
  // Inbound fediverse activities are verified here and handled by the workers (this process's, or others').
  const fediverseInbox = enqueueOnlyInbox(database, logger);
  const app = createApp({
    database,
    env,
    logger,
    version: VERSION,
    intake,
    changes,
    telemetry,
    logSelfCheck,
    fediverseInbox: fediverseInbox.queue,
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
      const url = `http://localhost:${info.port}`;
      logger.info({ url, role, driver: database.driver, version: VERSION }, `Curate listening on ${url}`);
      resolve({
        url,
        close: () =>
          closeNodeServer(server)
            .then(() => fediverseInbox.close())
            .then(stop),
      });
    });
    prepareNodeServer(server);
  });
}
