import type { PgBoss } from "pg-boss";
import type { Logger } from "pino";
import { pruneTokenUses } from "../api-tokens/service.ts";
import type { AppEnv } from "../config/env.ts";
import type { DatabaseHandle } from "../db/index.ts";
import { feedSecretValues } from "../feeds/secret-store.ts";
import type { Intake } from "../intake/runtime.ts";
import { runIntakeTick } from "../intake/tick.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { pruneLimits } from "../limits/service.ts";
import { logSigner } from "../moderation-log/keys.ts";
import { checkAllLogs, signHeads } from "../moderation-log/service.ts";
import { createExternalPlugins } from "../plugins/external/loader.ts";
import { secretSource } from "../plugins/placeholders.ts";
import { builtinPlugins, createPluginRegistry } from "../plugins/registry.ts";
import type { Plugin } from "../plugins/types.ts";
import { createAcknowledgementSender } from "../processing/acknowledgement-sender.ts";
import { type ProcessingEngine, startProcessingEngine } from "../processing/engine.ts";
import { scheduleDueRecaps } from "../processing/recaps.ts";
import type { RunnerDeps } from "../processing/runner.ts";
import { type BulkRunEngine, startBulkRunEngine } from "./bulk-runs.ts";
import { createQueueClient } from "./queue.ts";

export interface WorkerHost {
  boss: PgBoss;
  engine: ProcessingEngine;
  /** Background bulk decisions ("Select all N matching" beyond the cap of one call). */
  bulkRuns: BulkRunEngine;
  /** Runs one intake pass now (mentions, then feed sources), as the scheduled one does. */
  runIntakeNow(): Promise<void>;
  /** Looks for due recaps now, as the scheduled tick does; answers how many runs it made. */
  runRecapsNow(): Promise<number>;
  /** Forgets what is no longer needed (rate-limit windows that ended long ago), as the hourly pass does. */
  runHousekeepingNow(): Promise<void>;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  database: DatabaseHandle;
  env: AppEnv;
  intake: Intake;
  logger: Logger;
  /** Plugins besides the built-ins (tests add local fakes). */
  extraPlugins?: Plugin[];
  /** A feed's own secrets; the feed's secret store (sealed in the database) unless a test hands its own. */
  feedSecrets?: (feedId: string) => Promise<Readonly<Record<string, string>>>;
  /** The clock of the recap scheduler and of the X budget's windows (tests move it). */
  clock?: () => Date;
}

const INTAKE_QUEUE = "curate-intake";
const RECAP_QUEUE = "curate-recaps";
const HOUSEKEEPING_QUEUE = "curate-housekeeping";
/** Every worker asks this often (and once at start); the queue keeps one pass per interval however many ask. */
const HOUSEKEEPING_SECONDS = 60 * 60;
const LOG_SIGN_QUEUE = "curate-log-signing";
const LOG_CHECK_QUEUE = "curate-log-check";

/** The pipeline's runner settings from the environment. */
export function runnerDeps(options: WorkerOptions): RunnerDeps {
  const { database, env, logger } = options;
  const feedSecrets =
    options.feedSecrets ??
    ((feedId: string) => feedSecretValues(database.db, env.SECRETS_KEYS, feedId, logger));
  const registry = createPluginRegistry([
    ...builtinPlugins({
      db: database.db,
      publicUrl: env.PUBLIC_URL,
      aiBaseUrl: env.AI_API_BASE_URL,
      aiDefaultModel: env.AI_DEFAULT_MODEL,
      aiCallsPerFeedPerHour: env.AI_CALLS_PER_FEED_PER_HOUR,
      telegramApiRoot: env.TELEGRAM_API_BASE_URL,
      discordApiBaseUrl: env.DISCORD_API_BASE_URL,
      notionApiBaseUrl: env.NOTION_API_BASE_URL,
      nearRpcUrls: { mainnet: env.NEAR_RPC_URL, testnet: env.NEAR_TESTNET_RPC_URL },
      crosspostApiUrl: env.CROSSPOST_API_URL,
      privateHostsAllowed: env.PRIVATE_HOSTS_ALLOWED,
    }),
    ...(options.extraPlugins ?? []),
  ]);
  return {
    db: database.db,
    registry,
    externalPlugins: createExternalPlugins({
      db: database.db,
      allowedHosts: env.PLUGIN_ALLOWED_HOSTS,
      privateHostsAllowed: env.PRIVATE_HOSTS_ALLOWED,
      limits: { memoryLimitMb: env.PLUGIN_MEMORY_LIMIT_MB, timeoutMs: env.PLUGIN_TIMEOUT_MS },
      codeTtlMs: env.PLUGIN_CODE_TTL_MS,
    }),
    secretsFor: async (feedId) => secretSource(env.PLUGIN_SECRET_VALUES, await feedSecrets(feedId)),
    logger,
    maxAttempts: env.PROCESSING_MAX_ATTEMPTS,
    stepTimeoutMs: env.PROCESSING_STEP_TIMEOUT_MS,
    branchConcurrency: 4,
    leaseMs: env.PROCESSING_HEARTBEAT_SECONDS * 1000,
    acknowledgements: {
      sender: createAcknowledgementSender(
        env,
        logger,
        createXBudget(database.db, { limit: env.X_API_CALLS_PER_HOUR, clock: options.clock }),
      ),
      minIntervalMs: env.ACK_MIN_INTERVAL_MS,
      perFeedPerHour: env.ACKS_PER_FEED_PER_HOUR,
    },
  };
}

/**
 * The worker role: one pg-boss engine on the app's database runs the processing pipeline and the intake polls.
 * Every worker process asks for an intake pass each interval, but the queue keeps one per interval and runs one
 * at a time, so M workers poll X once, not M times.
 */
export async function startWorker(options: WorkerOptions): Promise<WorkerHost> {
  const { database, env, intake, logger } = options;
  const boss = createQueueClient(database, { monitorIntervalSeconds: env.WORKER_MONITOR_INTERVAL_SECONDS });
  boss.on("error", (error) => logger.warn({ err: error }, "queue error"));
  await boss.start();

  const engine = await startProcessingEngine(
    boss,
    database,
    runnerDeps(options),
    { concurrency: env.PROCESSING_CONCURRENCY, heartbeatSeconds: env.PROCESSING_HEARTBEAT_SECONDS },
    logger,
  );

  const bulkRuns = await startBulkRunEngine(
    boss,
    database,
    { heartbeatSeconds: env.PROCESSING_HEARTBEAT_SECONDS, chunkPauseMs: env.BULK_RUN_CHUNK_PAUSE_MS },
    logger,
  );

  const intakePass = () => runIntakeTick(database.db, intake, logger);

  await boss.createQueue(INTAKE_QUEUE, {
    policy: "singleton",
    retryLimit: 0,
    expireInSeconds: 15 * 60,
    deleteAfterSeconds: 60 * 60,
  } as Parameters<PgBoss["createQueue"]>[1]);
  await boss.work(INTAKE_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
    await intakePass();
  });
  const intervalSeconds = Math.max(1, Math.round(env.INTAKE_INTERVAL_MS / 1000));
  const askForIntake = () =>
    boss
      .sendThrottled(INTAKE_QUEUE, {}, null, intervalSeconds, "poll")
      .catch((error) => logger.warn({ err: error }, "could not schedule intake"));
  const timer = setInterval(askForIntake, env.INTAKE_INTERVAL_MS);
  timer.unref();

  // Recaps: every worker asks for a look each RECAP_TICK_MS; the queue keeps one per interval, and the look
  // itself makes each scheduled run once however many workers look (decision 0013).
  const clock = options.clock ?? (() => new Date());
  const recapPass = async () => {
    const created = await scheduleDueRecaps(database.db, clock(), logger);
    if (created) engine.relayNow();
    return created;
  };
  await boss.createQueue(RECAP_QUEUE, {
    policy: "singleton",
    retryLimit: 0,
    expireInSeconds: 5 * 60,
    deleteAfterSeconds: 60 * 60,
  } as Parameters<PgBoss["createQueue"]>[1]);
  await boss.work(RECAP_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
    try {
      await recapPass();
    } catch (error) {
      logger.warn({ err: error }, "recap scheduling failed");
    }
  });
  const recapSeconds = Math.max(1, Math.round(env.RECAP_TICK_MS / 1000));
  const recapTimer = setInterval(
    () =>
      boss
        .sendThrottled(RECAP_QUEUE, {}, null, recapSeconds, "tick")
        .catch((error) => logger.warn({ err: error }, "could not schedule the recap tick")),
    env.RECAP_TICK_MS,
  );
  recapTimer.unref();

  const housekeepingPass = async () => {
    await pruneLimits(database.db);
    await pruneTokenUses(database.db);
  };
  const housekeepingTimer = await everyInterval(
    boss,
    HOUSEKEEPING_QUEUE,
    HOUSEKEEPING_SECONDS * 1000,
    logger,
    "housekeeping",
    housekeepingPass,
    { askNow: true },
  );

  // The moderation logs: heads signed every LOG_SIGN_INTERVAL_MS, every log recomputed every LOG_CHECK_INTERVAL_MS,
  // each once per interval across workers (a second signature of one head would be refused anyway).
  const signer = logSigner(env.LOG_SIGNING_SEED);
  const logTimers = [
    await everyInterval(boss, LOG_SIGN_QUEUE, env.LOG_SIGN_INTERVAL_MS, logger, "log signing", () =>
      signHeads(database.db, signer, logger),
    ),
    await everyInterval(boss, LOG_CHECK_QUEUE, env.LOG_CHECK_INTERVAL_MS, logger, "log self-check", () =>
      checkAllLogs(database.db, logger),
    ),
  ];

  return {
    boss,
    engine,
    bulkRuns,
    runIntakeNow: intakePass,
    runRecapsNow: recapPass,
    runHousekeepingNow: housekeepingPass,
    async stop() {
      clearInterval(timer);
      clearInterval(recapTimer);
      clearInterval(housekeepingTimer);
      for (const logTimer of logTimers) clearInterval(logTimer);
      await bulkRuns.stop();
      await engine.stop();
      await boss.stop({ graceful: true, timeout: 15_000 });
    },
  };
}

/** A singleton queue every worker asks to run `work` each `intervalMs`: the queue runs it once per interval. */
async function everyInterval(
  boss: PgBoss,
  queue: string,
  intervalMs: number,
  logger: Logger,
  what: string,
  work: () => Promise<unknown>,
  options: { askNow?: boolean } = {},
) {
  const seconds = Math.max(1, Math.round(intervalMs / 1000));
  await boss.createQueue(queue, {
    policy: "singleton",
    retryLimit: 0,
    expireInSeconds: 15 * 60,
    deleteAfterSeconds: 60 * 60,
  } as Parameters<PgBoss["createQueue"]>[1]);
  await boss.work(queue, { pollingIntervalSeconds: 1 }, async () => {
    try {
      await work();
    } catch (error) {
      logger.warn({ err: error }, `${what} failed`);
    }
  });
  const ask = () =>
    boss
      .sendThrottled(queue, {}, null, seconds, "tick")
      .catch((error) => logger.warn({ err: error }, `could not schedule the ${what}`));
  if (options.askNow) void ask();
  const timer = setInterval(ask, intervalMs);
  timer.unref();
  return timer;
}
