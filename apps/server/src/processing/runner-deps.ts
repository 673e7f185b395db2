import type { Logger } from "pino";
import type { AppEnv } from "../config/env.ts";
import type { DatabaseHandle } from "../db/index.ts";
import { createFediverse } from "../fediverse/federation.ts";
import { feedSecretValues } from "../feeds/secret-store.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { createExternalPlugins } from "../plugins/external/loader.ts";
import { secretSource } from "../plugins/placeholders.ts";
import { builtinPlugins, createPluginRegistry } from "../plugins/registry.ts";
import type { Plugin } from "../plugins/types.ts";
import type { Telemetry } from "../telemetry/telemetry.ts";
import { createAcknowledgementSender } from "./acknowledgement-sender.ts";
import type { RunnerDeps } from "./shared.ts";

/** What the pipeline's runner is built from: the worker's and the HTTP app's (dry runs) alike. */
export interface RunnerDepsOptions {
  database: DatabaseHandle;
  env: AppEnv;
  logger: Logger;
  /** Where jobs and steps are counted and traced: the composition's telemetry, shared with its app. */
  telemetry: Telemetry;
  /** Plugins besides the built-ins (tests add local fakes). */
  extraPlugins?: Plugin[];
  /** A feed's own secrets; the feed's secret store (sealed in the database) unless a test hands its own. */
  feedSecrets?: (feedId: string) => Promise<Readonly<Record<string, string>>>;
  /** The clock of the recap scheduler, the X budget's windows, heartbeats and alert checks (tests move it). */
  clock?: () => Date;
}

/** The pipeline's runner settings from the environment. */
export function runnerDeps(options: RunnerDepsOptions): RunnerDeps {
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
      mail: env.MAIL,
      fediverse: createFediverse({ db: database.db, env, logger }),
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
    telemetry: options.telemetry,
    maxAttempts: env.PROCESSING_MAX_ATTEMPTS,
    stepTimeoutMs: env.PROCESSING_STEP_TIMEOUT_MS,
    branchConcurrency: 4,
    channelPacing: env.CHANNEL_PACING_PERCENT / 100,
    scheduleClock: options.clock ? () => (options.clock as () => Date)().getTime() : Date.now,
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
