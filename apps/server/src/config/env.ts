import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ENVIRONMENTS } from "@curate/core";
import { z } from "zod";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const list = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(ENVIRONMENTS).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().max(255).optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  PUBLIC_URL: z.url().optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SUPER_ADMIN_ACCOUNTS: list,
  BOT_HANDLE: z
    .string()
    .regex(/^@?\w{1,15}$/, "must be an X handle")
    .default("curatedotfun")
    .transform((h) => h.replace(/^@/, "")),
  AUTH_RECIPIENT: z.string().optional(),
  NEAR_RPC_URL: z.url().default("https://rpc.mainnet.near.org"),
  X_API_BASE_URL: z.url().default("https://api.x.com"),
  X_BEARER_TOKEN: z.string().optional(),
  /**
   * The bot account's OAuth 2.0 user access token (scope tweet.write): posting replies needs the account's own
   * token, which the app-only X_BEARER_TOKEN is not. Only acknowledgements on X use it.
   */
  X_USER_ACCESS_TOKEN: z.string().min(1).max(500).optional(),
  /** The bot's Bluesky PDS: where it logs in (com.atproto.server.createSession) and reads its notifications. */
  BLUESKY_SERVICE_URL: z.url().default("https://bsky.social"),
  /**
   * An AppView that answers unauthenticated reads (https://public.api.bsky.app) for getPosts and searchPosts;
   * unset, they go through the PDS with the bot's session, which proxies them to its AppView.
   */
  BLUESKY_APPVIEW_URL: z.url().optional(),
  /** The bot's Bluesky handle (`curatebot.bsky.social`): what `!submit @<handle>` names, and its login. */
  BLUESKY_IDENTIFIER: z
    .string()
    .regex(/^@?[a-z0-9][a-z0-9.-]{0,252}$/i, "must be a Bluesky handle")
    .transform((h) => h.replace(/^@/, "").toLowerCase())
    .optional(),
  /** An app password of the bot's account (Settings → App passwords), never its main password. */
  BLUESKY_APP_PASSWORD: z.string().min(1).max(200).optional(),
  AI_API_BASE_URL: z.url().default("https://openrouter.ai/api/v1"),
  AI_DEFAULT_MODEL: z.string().min(1).max(200).default("openai/gpt-4o-mini"),
  PINATA_JWT: z.string().optional(),
  PINATA_API_URL: z.url().default("https://api.pinata.cloud"),
  PINATA_UPLOAD_URL: z.url().default("https://api.pinata.cloud/pinning/pinFileToIPFS"),
  PINATA_GATEWAY_URL: z.url().default("https://gateway.pinata.cloud/ipfs"),
  CROSSPOST_API_URL: z.url().default("https://api.opencrosspost.com"),
  PLUGIN_ALLOWED_HOSTS: list,
  /**
   * Where this deployment's source code is published (its repository): the built-in plugins link there. Unset,
   * they link nowhere rather than to a repository that is not this one.
   */
  SOURCE_REPOSITORY_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
  /** Heap of one external plugin call's isolate, in MB. */
  PLUGIN_MEMORY_LIMIT_MB: z.coerce.number().int().min(8).max(1024).default(64),
  /** Wall-clock time of one external plugin call. */
  PLUGIN_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  /** How long a fetched plugin entry point is reused before it is fetched again. */
  PLUGIN_CODE_TTL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  PLUGIN_SECRETS: list,
  /**
   * Encrypts feeds' own secrets at rest: 32 random bytes, base64 or hex (`openssl rand -base64 32`). Required in
   * production once any feed secret exists; generated into the data folder otherwise.
   */
  SECRETS_KEY: z.string().optional(),
  /** Earlier SECRETS_KEY values, still read while the server re-encrypts what they sealed (a rotation). */
  SECRETS_KEY_PREVIOUS: list,
  /**
   * Signs the heads of the feeds' moderation logs (docs/decisions/0027): an Ed25519 key's 32-byte seed, base64 or hex
   * (`openssl rand -base64 32`). Required in production; generated into the data folder otherwise. Its public key,
   * and every earlier one, is served at /.well-known/curate/log-key.json.
   */
  LOG_SIGNING_KEY: z.string().optional(),
  /** How often the heads of logs that received entries are signed. */
  LOG_SIGN_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  /** How often the server recomputes every stored log and its signatures (the self-check). */
  LOG_CHECK_INTERVAL_MS: z.coerce.number().int().min(1000).max(604_800_000).default(3_600_000),
  /** How often the worker recomputes the medians (approvers' time to decide, each feed's time to decision). */
  REPUTATION_REFRESH_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  /**
   * How often the worker re-evaluates earned trust in feeds that have it on, so a standing that depends on a day
   * window follows the calendar, not only the curator's next submission or decision.
   */
  TRUST_REEVALUATION_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  /** How often the worker looks for queues past their service level to remind approvers who opted in. */
  QUEUE_REMINDER_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  TELEGRAM_API_BASE_URL: z.url().default("https://api.telegram.org"),
  /**
   * The intake bot's token (@BotFather): with it, the bot's groups and channels feed intake. Polled with getUpdates,
   * or pushed to `POST /api/telegram/webhook` when PUBLIC_URL is a public https address. A secret. Not named
   * TELEGRAM_BOT_TOKEN: that is the placeholder distributor configs share through PLUGIN_SECRETS, and a bot that
   * only publishes must not start reading (or have its webhook replaced) because it was set.
   */
  TELEGRAM_INTAKE_BOT_TOKEN: z
    .string()
    .regex(/^\d{1,20}:[\w-]{20,100}$/, "must be a bot token as @BotFather gives it (<id>:<secret>)")
    .optional(),
  /**
   * What Telegram sends in X-Telegram-Bot-Api-Secret-Token with each webhook delivery; derived from the bot token
   * when unset. 1 to 256 letters, digits, `_` and `-`, as Telegram allows.
   */
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[\w-]{1,256}$/, "must be 1 to 256 letters, digits, _ or -")
    .optional(),
  /**
   * The instance the Mastodon bot account is on (https://mastodon.social): its mentions, statuses and hashtag
   * timelines are read there. No default: the fediverse has no one server, and the token only works on its own.
   */
  MASTODON_BASE_URL: z.url().optional(),
  /** The bot account's access token (read scope); with MASTODON_BASE_URL it turns the Mastodon source on. */
  MASTODON_ACCESS_TOKEN: z.string().min(1).max(500).optional(),
  /** The bot's `user@host` as curators mention it; asked of the instance (verify_credentials) when not given. */
  MASTODON_BOT_ACCT: z
    .string()
    .regex(/^@?[\w.-]{1,64}(@[\w.-]{1,253})?$/, "must be a Mastodon account (user or user@host)")
    .optional(),
  DISCORD_API_BASE_URL: z.url().default("https://discord.com/api"),
  NOTION_API_BASE_URL: z.url().default("https://api.notion.com"),
  NEAR_TESTNET_RPC_URL: z.url().default("https://rpc.testnet.near.org"),
  /**
   * Hosts that URLs a feed's config chooses (webhooks, Supabase projects) may reach although they are on loopback,
   * private or link-local addresses; `*` allows any. Empty by default: a feed owner cannot reach the operator's
   * internal network.
   */
  PRIVATE_HOSTS_ALLOWED: list,
  SEED_DEMO_DATA: booleanFlag.optional(),
  ENABLE_TEST_ROUTES: booleanFlag.optional(),
  ALLOW_PUBLIC_TRIAL: booleanFlag.default(false),
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  READ_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(32 * 1024 * 1024),
  INTAKE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  /** How often workers look for recaps whose scheduled time has come (one look per interval across workers). */
  RECAP_TICK_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  PROCESSING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  PROCESSING_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  PROCESSING_STEP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(900_000).default(120_000),
  /** The pause between two chunks (100 posts) of a background bulk decision, leaving room for other work. */
  BULK_RUN_CHUNK_PAUSE_MS: z.coerce.number().int().min(0).max(10_000).default(10),
  PROCESSING_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(600).default(30),
  WORKER_MONITOR_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** How many proxies in front of the server to believe X-Forwarded-For from (0: use the socket's address). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(5).default(0),
  WRITE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  PINATA_KEYS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  FEEDS_PER_ACCOUNT: z.coerce.number().int().min(1).default(20),
  PLUGINS_PER_ACCOUNT: z.coerce.number().int().min(1).default(50),
  UPLOAD_BYTES_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),
  X_API_CALLS_PER_HOUR: z.coerce.number().int().min(1).default(300),
  AI_CALLS_PER_FEED_PER_HOUR: z.coerce.number().int().min(1).default(120),
  /** Test servers only: the share of a channel's interval between sends kept, in percent (their fakes have no limit). */
  CHANNEL_PACING_PERCENT: z.coerce.number().int().min(1).max(100).default(100),
  /**
   * Test servers only: every API route checks its JSON answers against the responses it declares (its status, and
   * the body's schema), and answers INTERNAL_ERROR naming the route and the fields where one breaks it.
   */
  CHECK_RESPONSE_CONTRACTS: booleanFlag.default(false),
  /** The shortest time between two acknowledgements of one network's bot, over every feed and worker. */
  ACK_MIN_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /** Acknowledgements one feed may make the bots send an hour (over every network), so no feed makes them spam. */
  ACKS_PER_FEED_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(60),
  /** Dry runs (previews, config tests, replays) one account may start an hour; a config test of N posts is N. */
  DRY_RUNS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).default(200),
  /** "Publish again as a new post" (a second copy on a channel) one account may ask for an hour. */
  REPUBLISH_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  RSS_ALLOWED_HOSTS: list,
  /**
   * The bearer token Prometheus sends to read `GET /metrics` (Authorization: Bearer …); unset, the route is off.
   * At least 16 characters (`openssl rand -hex 32`).
   */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(256).optional(),
  /** An OTLP/HTTP collector's base URL (http://collector:4318): set, traces are exported to `<it>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  /** Headers the collector needs (`key=value,key2=value2`, values URL-encoded), e.g. an API key. */
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .max(4096)
    .default("")
    .transform((value, ctx) => {
      const headers: Record<string, string> = {};
      for (const pair of value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)) {
        const at = pair.indexOf("=");
        const name = pair.slice(0, at).trim();
        if (at < 1 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
          ctx.addIssue({ code: "custom", message: "must be key=value pairs separated by commas" });
          return z.NEVER;
        }
        headers[name.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
      }
      return headers;
    }),
  OTEL_SERVICE_NAME: z.string().min(1).max(100).default("curate"),
  /** Where alert notices are POSTed as JSON (signed like webhook deliveries when ALERT_WEBHOOK_SECRET is set). */
  ALERT_WEBHOOK_URL: z.url().optional(),
  ALERT_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").max(256).optional(),
  /** A Telegram bot that sends alert notices to ALERT_TELEGRAM_CHAT_ID (both or neither). A secret. */
  ALERT_TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d{1,20}:[\w-]{20,100}$/, "must be a bot token as @BotFather gives it (<id>:<secret>)")
    .optional(),
  ALERT_TELEGRAM_CHAT_ID: z
    .string()
    .regex(/^(-?\d{1,20}|@\w{5,32})$/, "must be a chat id or @channelusername")
    .optional(),
  /** How often the alert check runs (one check per interval over every worker). */
  ALERT_CHECK_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** A queue whose oldest waiting job has waited this long opens an alert. */
  ALERT_QUEUE_AGE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(15),
  /** A plugin and channel whose steps failed at least this share (in %) within the window opens an alert… */
  ALERT_FAILURE_RATE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** …once at least this many of its steps ended in the window. */
  ALERT_FAILURE_MIN_STEPS: z.coerce.number().int().min(1).max(100_000).default(10),
  ALERT_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /** A source that has not read successfully this long past its own polling interval opens an alert. */
  ALERT_SOURCE_SILENT_MINUTES: z.coerce.number().int().min(5).max(10_080).default(60),
  /**
   * The mail relay newsletters are sent through (`smtp://user:pass@host:587`, `smtps://…:465`): operator-configured
   * like the services' base URLs, so its host is trusted wherever it is. Unset, email is off and the feature says so.
   */
  SMTP_URL: z
    .string()
    .max(2000)
    .regex(/^smtps?:\/\/[^/?#]+/, "must be an smtp:// or smtps:// URL")
    .optional(),
  /** The From of every mail (`Curate <news@example.org>`); default no-reply@ the host of PUBLIC_URL. */
  EMAIL_FROM: z.string().max(320).optional(),
  /** Subscribers (waiting and confirmed) one feed may have. */
  EMAIL_SUBSCRIBERS_PER_FEED: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  /** Mails of one feed handed to the relay per delivery pass, so a large list never starves the other feeds. */
  EMAIL_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(100),
  /** The relay's rate: mails per second over every feed (a delivery pass runs on one worker at a time). */
  EMAIL_SENDS_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(20),
  /** How often workers look for mails waiting to be delivered. */
  EMAIL_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** The password the mail provider's bounce and complaint webhook sends (HTTP Basic); unset, the webhook is off. */
  EMAIL_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").max(256).optional(),
  /** Subscription requests per address and hour, and per client address and hour. */
  EMAIL_SUBSCRIBES_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(3),
  EMAIL_SUBSCRIBES_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** "Send me a test" mails one account may send an hour. */
  EMAIL_TESTS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /**
   * Outside production without SMTP_URL: mails are kept in DATA_DIR/dev-mail and listed at /api/test/mails
   * instead of sent. On by default in development; refused in production.
   */
  EMAIL_DEV_CATCHALL: booleanFlag.optional(),
  /**
   * Development and tests only (refused in production): the fediverse is offered with an http PUBLIC_URL, and its
   * requests may reach loopback servers (127.0.0.1, localhost): two local instances federating.
   */
  FEDIVERSE_ALLOW_LOOPBACK: booleanFlag.optional(),
  /** How often workers look for fediverse deliveries that are due. */
  FEDIVERSE_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  /** Deliveries of one activity to one inbox, before it is given up (exponential backoff between them). */
  FEDIVERSE_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  WEB_DIST_DIR: z.string().optional(),
  /** The web app's server-rendering entry (default: dist-server/entry-server.js beside the web build). */
  WEB_SSR_ENTRY: z.string().optional(),
  /** How long a public page's HTML may wait for its data before the plain app shell is sent instead. */
  SSR_TIMEOUT_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
});

export type Env = z.infer<typeof envSchema>;

export interface FediverseSetting {
  /** Feeds may opt in: PUBLIC_URL is https (or the development loopback allowance is on). */
  available: boolean;
  /** Non-public hosts the fediverse's requests may reach (only the loopback allowance names any). */
  allowedHosts: readonly string[];
}

export interface AppEnv extends Env {
  /** The fediverse setting derived from PUBLIC_URL and FEDIVERSE_ALLOW_LOOPBACK. */
  FEDIVERSE: FediverseSetting;
  /** The address the server binds: every interface in production, this machine only otherwise. */
  HOST: string;
  /**
   * Test posts (`POST /api/test/tweets`) and the development wallet: on by default only for a development or test
   * server that only this machine can reach, never in production.
   */
  ENABLE_TEST_ROUTES: boolean;
  PUBLIC_URL: string;
  AUTH_RECIPIENT: string;
  SESSION_SECRET: string;
  DATA_DIR: string;
  LOG_LEVEL: NonNullable<Env["LOG_LEVEL"]>;
  /** The values of the variables PLUGIN_SECRETS names (that are set): what `{{NAME}}` placeholders may use. */
  PLUGIN_SECRET_VALUES: Readonly<Record<string, string>>;
  /** The key feed secrets are sealed with (null: production without SECRETS_KEY), then the keys being rotated out. */
  SECRETS_KEYS: { current: Buffer | null; previous: Buffer[] };
  /** The seed of the moderation log's signing key (LOG_SIGNING_KEY, or generated outside production). */
  LOG_SIGNING_SEED: Buffer;
  /** Where mail goes: the relay (SMTP_URL), the development catch-all, or nowhere (email is off). */
  MAIL: MailSetting;
  EMAIL_FROM: string;
}

export type MailSetting =
  | {
      kind: "smtp";
      host: string;
      port: number;
      /** smtps://: TLS from the first byte; smtp://: STARTTLS when the relay offers it. */
      secure: boolean;
      auth: { user: string; pass: string } | null;
    }
  | { kind: "catch-all"; dir: string }
  | { kind: "off" };

/** A 32-byte key written as base64 or hex. */
function secretsKey(value: string, variable: string): Buffer {
  const text = value.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (bytes.length !== 32 || (!/^[0-9a-f]{64}$/i.test(text) && bytes.toString("base64") !== text)) {
    throw new EnvError(
      `Invalid environment:\n  ${variable}: must be 32 random bytes in base64 or hex (openssl rand -base64 32)`,
    );
  }
  return bytes;
}

/**
 * The variables plugin configs may name as `{{NAME}}` (docs/plugins.md): only those the operator lists in
 * PLUGIN_SECRETS, read once here. The server's own settings can never be listed.
 */
function pluginSecrets(names: string[], source: NodeJS.ProcessEnv): Record<string, string> {
  const own = new Set(Object.keys(envSchema.shape));
  const refused = names.filter((name) => own.has(name) || !/^[A-Z][A-Z0-9_]{0,63}$/.test(name));
  if (refused.length) {
    throw new EnvError(
      `Invalid environment:\n  PLUGIN_SECRETS: ${refused.join(", ")} cannot be filled into plugin configs ` +
        "(names are upper-case variables, and the server's own settings are never shared with plugins)",
    );
  }
  return Object.fromEntries(
    names.flatMap((name) => (typeof source[name] === "string" && source[name] ? [[name, source[name]]] : [])),
  );
}

export class EnvError extends Error {}

/** Whether a host name or address only reaches this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    bare === "localhost" || bare.endsWith(".localhost") || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare)
  );
}

/** Parses the environment once at start-up; throws EnvError naming every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): AppEnv {
  const blanksRemoved = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(blanksRemoved);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const production = env.NODE_ENV === "production";
  if (production && !env.SESSION_SECRET) {
    throw new EnvError("Invalid environment:\n  SESSION_SECRET: required in production");
  }
  if (production && !env.LOG_SIGNING_KEY) {
    throw new EnvError(
      "Invalid environment:\n  LOG_SIGNING_KEY: required in production (the moderation log's signing key: openssl rand -base64 32)",
    );
  }
  if (env.MASTODON_ACCESS_TOKEN && !env.MASTODON_BASE_URL) {
    throw new EnvError(
      "Invalid environment:\n  MASTODON_BASE_URL: required with MASTODON_ACCESS_TOKEN (the bot's instance)",
    );
  }
  if (Boolean(env.ALERT_TELEGRAM_BOT_TOKEN) !== Boolean(env.ALERT_TELEGRAM_CHAT_ID)) {
    throw new EnvError(
      "Invalid environment:\n  ALERT_TELEGRAM_CHAT_ID: ALERT_TELEGRAM_BOT_TOKEN and ALERT_TELEGRAM_CHAT_ID go together",
    );
  }
  if (production && env.EMAIL_DEV_CATCHALL) {
    throw new EnvError(
      "Invalid environment:\n  EMAIL_DEV_CATCHALL: the development mail catch-all never runs in production (set SMTP_URL)",
    );
  }
  if (production && env.FEDIVERSE_ALLOW_LOOPBACK) {
    throw new EnvError(
      "Invalid environment:\n  FEDIVERSE_ALLOW_LOOPBACK: federating over http and with loopback servers never runs in production",
    );
  }
  if (production && env.ENABLE_TEST_ROUTES) {
    throw new EnvError("Invalid environment:\n  ENABLE_TEST_ROUTES: test routes never run in production");
  }
  if (env.CHANNEL_PACING_PERCENT !== 100 && env.NODE_ENV !== "test") {
    throw new EnvError(
      "Invalid environment:\n  CHANNEL_PACING_PERCENT: only test servers send faster than a channel's own pace",
    );
  }
  if (env.CHECK_RESPONSE_CONTRACTS && env.NODE_ENV !== "test") {
    throw new EnvError(
      "Invalid environment:\n  CHECK_RESPONSE_CONTRACTS: only test servers check their answers against the API's contracts",
    );
  }
  const host = env.HOST ?? (production ? "0.0.0.0" : "127.0.0.1");
  const exposed = !isLoopbackHost(new URL(publicUrl).hostname) || !isLoopbackHost(host);
  if (!production && exposed && !env.ALLOW_PUBLIC_TRIAL) {
    throw new EnvError(
      `Invalid environment:\n  NODE_ENV: this ${env.NODE_ENV} server would be reachable beyond this machine ` +
        `(PUBLIC_URL ${publicUrl}, HOST ${host}). Development mode is for this machine only: set NODE_ENV=production ` +
        "and SESSION_SECRET to run it for real, or ALLOW_PUBLIC_TRIAL=true to try it in the open (test posts and " +
        "the development wallet stay off unless ENABLE_TEST_ROUTES=true).",
    );
  }
  return {
    ...env,
    HOST: host,
    ENABLE_TEST_ROUTES: !production && (env.ENABLE_TEST_ROUTES ?? !exposed),
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    AUTH_RECIPIENT: env.AUTH_RECIPIENT ?? new URL(publicUrl).host,
    SESSION_SECRET: env.SESSION_SECRET ?? generatedSecret(dataDir, "session-secret"),
    LOG_LEVEL: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "warn" : "info"),
    PLUGIN_SECRET_VALUES: pluginSecrets(env.PLUGIN_SECRETS, source),
    SECRETS_KEYS: {
      current: env.SECRETS_KEY
        ? secretsKey(env.SECRETS_KEY, "SECRETS_KEY")
        : production
          ? null
          : Buffer.from(generatedSecret(dataDir, "secrets-key"), "hex"),
      previous: env.SECRETS_KEY_PREVIOUS.map((key) => secretsKey(key, "SECRETS_KEY_PREVIOUS")),
    },
    MAIL: mailSetting(env, dataDir),
    FEDIVERSE: fediverseSetting(env, publicUrl),
    EMAIL_FROM: env.EMAIL_FROM ?? `Curate <no-reply@${new URL(publicUrl).hostname}>`,
    LOG_SIGNING_SEED: env.LOG_SIGNING_KEY
      ? secretsKey(env.LOG_SIGNING_KEY, "LOG_SIGNING_KEY")
      : Buffer.from(generatedSecret(dataDir, "log-signing-key"), "hex"),
  };
}

/**
 * Whether feeds may be fediverse actors (decision 0037): only with an https PUBLIC_URL, since remote servers check
 * the actor's ids against the address they fetch; the loopback allowance (never in production) also lets its
 * requests reach this machine.
 */
function fediverseSetting(env: Env, publicUrl: string): FediverseSetting {
  const loopback = env.NODE_ENV !== "production" && env.FEDIVERSE_ALLOW_LOOPBACK === true;
  const https = new URL(publicUrl).protocol === "https:";
  return {
    available: https || loopback,
    allowedHosts: loopback ? ["127.0.0.1", "localhost", "::1"] : [],
  };
}

/** The mail setting: the relay when SMTP_URL is set; else, outside production, the catch-all when it is on. */
function mailSetting(env: Env, dataDir: string): MailSetting {
  if (env.SMTP_URL) {
    let url: URL;
    try {
      url = new URL(env.SMTP_URL);
    } catch {
      throw new EnvError("Invalid environment:\n  SMTP_URL: must be an smtp:// or smtps:// URL");
    }
    const secure = url.protocol === "smtps:";
    return {
      kind: "smtp",
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : null,
    };
  }
  const catchAll =
    env.NODE_ENV !== "production" && (env.EMAIL_DEV_CATCHALL ?? env.NODE_ENV === "development");
  return catchAll ? { kind: "catch-all", dir: join(dataDir, "dev-mail") } : { kind: "off" };
}

/**
 * Outside production a missing session secret, secrets key or log signing key is generated once and kept in the data
 * folder.
 */
function generatedSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
