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

const optionalUrl = z.url().optional();

const envSchema = z.object({
  NODE_ENV: z.enum(ENVIRONMENTS).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
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
  AI_API_BASE_URL: optionalUrl,
  PINATA_JWT: z.string().optional(),
  PINATA_API_URL: z.url().default("https://api.pinata.cloud"),
  PINATA_UPLOAD_URL: z.url().default("https://api.pinata.cloud/pinning/pinFileToIPFS"),
  PINATA_GATEWAY_URL: z.url().default("https://gateway.pinata.cloud/ipfs"),
  CROSSPOST_API_URL: optionalUrl,
  PLUGIN_ALLOWED_HOSTS: list,
  SEED_DEMO_DATA: booleanFlag.optional(),
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  INTAKE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  WEB_DIST_DIR: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface AppEnv extends Env {
  PUBLIC_URL: string;
  AUTH_RECIPIENT: string;
  SESSION_SECRET: string;
  DATA_DIR: string;
  LOG_LEVEL: NonNullable<Env["LOG_LEVEL"]>;
}

export class EnvError extends Error {}

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
  if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
    throw new EnvError("Invalid environment:\n  SESSION_SECRET: required in production");
  }
  return {
    ...env,
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    AUTH_RECIPIENT: env.AUTH_RECIPIENT ?? new URL(publicUrl).host,
    SESSION_SECRET: env.SESSION_SECRET ?? generatedSecret(dataDir),
    LOG_LEVEL: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "warn" : "info"),
  };
}

/** Outside production a missing session secret is generated once and kept in the data folder. */
function generatedSecret(dataDir: string): string {
  const file = join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
