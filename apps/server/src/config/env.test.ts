import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "curate-env-"));

describe("loadEnv", () => {
  it("applies defaults and derives the public URL and auth recipient", () => {
    const env = loadEnv({ DATA_DIR: dataDir() });
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      PUBLIC_URL: "http://localhost:3000",
      AUTH_RECIPIENT: "localhost:3000",
      BOT_HANDLE: "curatedotfun",
      SUPER_ADMIN_ACCOUNTS: [],
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("generates a session secret once outside production and keeps it", () => {
    const dir = dataDir();
    const first = loadEnv({ DATA_DIR: dir }).SESSION_SECRET;
    expect(first).toHaveLength(64);
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
  });

  it("fails fast naming every bad variable", () => {
    const attempt = () =>
      loadEnv({ PORT: "eighty", DATABASE_URL: "mysql://x", NODE_ENV: "staging", DATA_DIR: dataDir() });
    expect(attempt).toThrow(EnvError);
    expect(attempt).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
    expect(attempt).toThrow(/NODE_ENV/);
  });

  it("keeps test routes and the development wallet to a development server only this machine can reach", () => {
    const local = loadEnv({ DATA_DIR: dataDir() });
    expect(local).toMatchObject({ HOST: "127.0.0.1", ENABLE_TEST_ROUTES: true });
    for (const exposed of [{ PUBLIC_URL: "https://curate.example" }, { HOST: "0.0.0.0" }]) {
      expect(() => loadEnv({ DATA_DIR: dataDir(), ...exposed })).toThrow(
        /NODE_ENV=production[\s\S]*ALLOW_PUBLIC_TRIAL/,
      );
      const trial = loadEnv({ DATA_DIR: dataDir(), ALLOW_PUBLIC_TRIAL: "true", ...exposed });
      expect(trial.ENABLE_TEST_ROUTES).toBe(false);
    }
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(32),
      LOG_SIGNING_KEY: "a".repeat(64),
      DATA_DIR: dataDir(),
    };
    expect(loadEnv({ ...production, PUBLIC_URL: "https://curate.example" })).toMatchObject({
      HOST: "0.0.0.0",
      ENABLE_TEST_ROUTES: false,
    });
    expect(() => loadEnv({ ...production, ENABLE_TEST_ROUTES: "true" })).toThrow(/never run in production/);
  });

  it("shares with plugin configs only the variables PLUGIN_SECRETS lists, never the server's own", () => {
    const env = loadEnv({
      DATA_DIR: dataDir(),
      PLUGIN_SECRETS: "AI_API_KEY, MISSING_ONE",
      AI_API_KEY: "sk-1",
      OTHER_SECRET: "not listed",
    });
    expect(env.PLUGIN_SECRET_VALUES).toEqual({ AI_API_KEY: "sk-1" });
    expect(() => loadEnv({ DATA_DIR: dataDir(), PLUGIN_SECRETS: "SESSION_SECRET" })).toThrow(
      /SESSION_SECRET/,
    );
    expect(() => loadEnv({ DATA_DIR: dataDir(), PLUGIN_SECRETS: "DATABASE_URL,lower" })).toThrow(
      /PLUGIN_SECRETS/,
    );
  });

  it("requires a session secret in production and does not write one", () => {
    const dir = dataDir();
    expect(() => loadEnv({ NODE_ENV: "production", DATA_DIR: dir })).toThrow(/SESSION_SECRET/);
    expect(existsSync(join(dir, "session-secret"))).toBe(false);
  });

  it("requires the moderation log's signing key in production, and generates one into the data folder otherwise", () => {
    const production = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), DATA_DIR: dataDir() };
    expect(() => loadEnv(production)).toThrow(/LOG_SIGNING_KEY: required in production/);
    expect(() => loadEnv({ ...production, LOG_SIGNING_KEY: "not a key" })).toThrow(/LOG_SIGNING_KEY/);
    const seed = "ab".repeat(32);
    expect(loadEnv({ ...production, LOG_SIGNING_KEY: seed }).LOG_SIGNING_SEED).toEqual(
      Buffer.from(seed, "hex"),
    );

    const dir = dataDir();
    const generated = loadEnv({ DATA_DIR: dir }).LOG_SIGNING_SEED;
    expect(generated).toHaveLength(32);
    expect(existsSync(join(dir, "log-signing-key"))).toBe(true);
    expect(loadEnv({ DATA_DIR: dir }).LOG_SIGNING_SEED).toEqual(generated);
  });

  it("keeps every channel's own pace outside test servers", () => {
    for (const NODE_ENV of ["development", "production"]) {
      expect(() =>
        loadEnv({
          NODE_ENV,
          CHANNEL_PACING_PERCENT: "10",
          SESSION_SECRET: "s".repeat(64),
          LOG_SIGNING_KEY: "a".repeat(64),
          DATA_DIR: dataDir(),
        }),
      ).toThrow(/CHANNEL_PACING_PERCENT: only test servers/);
    }
    expect(loadEnv({ DATA_DIR: dataDir() }).CHANNEL_PACING_PERCENT).toBe(100);
    expect(
      loadEnv({ NODE_ENV: "test", CHANNEL_PACING_PERCENT: "10", DATA_DIR: dataDir() }).CHANNEL_PACING_PERCENT,
    ).toBe(10);
  });

  it("parses lists and strips the @ of the bot handle", () => {
    const env = loadEnv({
      DATA_DIR: dataDir(),
      SUPER_ADMIN_ACCOUNTS: "a.near, b.near,,",
      BOT_HANDLE: "@bot",
    });
    expect(env.SUPER_ADMIN_ACCOUNTS).toEqual(["a.near", "b.near"]);
    expect(env.BOT_HANDLE).toBe("bot");
  });

  it("reads SMTP_URL once; without it, mail goes to the catch-all in development and nowhere in production", () => {
    expect(
      loadEnv({ DATA_DIR: dataDir(), SMTP_URL: "smtps://news%40curate.example:p%3Ass@mail.example:2465" })
        .MAIL,
    ).toEqual({
      kind: "smtp",
      host: "mail.example",
      port: 2465,
      secure: true,
      auth: { user: "news@curate.example", pass: "p:ss" },
    });
    expect(loadEnv({ DATA_DIR: dataDir(), SMTP_URL: "smtp://relay.internal" }).MAIL).toMatchObject({
      port: 587,
      secure: false,
      auth: null,
    });
    expect(() => loadEnv({ DATA_DIR: dataDir(), SMTP_URL: "http://relay" })).toThrow(/SMTP_URL/);
    const dir = dataDir();
    expect(loadEnv({ DATA_DIR: dir }).MAIL).toEqual({ kind: "catch-all", dir: join(dir, "dev-mail") });
    expect(loadEnv({ DATA_DIR: dir, NODE_ENV: "test" }).MAIL).toEqual({ kind: "off" });
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      LOG_SIGNING_KEY: "ab".repeat(32),
      DATA_DIR: dir,
    };
    expect(loadEnv(production).MAIL).toEqual({ kind: "off" });
    expect(() => loadEnv({ ...production, EMAIL_DEV_CATCHALL: "true" })).toThrow(/EMAIL_DEV_CATCHALL/);
  });

  it("offers the fediverse only with an https PUBLIC_URL; the loopback allowance fails closed in production", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      LOG_SIGNING_KEY: "ab".repeat(32),
      DATA_DIR: dataDir(),
    };
    expect(loadEnv({ ...production, PUBLIC_URL: "https://curate.example" }).FEDIVERSE).toEqual({
      available: true,
      allowedHosts: [],
    });
    expect(loadEnv({ ...production, PUBLIC_URL: "http://curate.example" }).FEDIVERSE.available).toBe(false);
    expect(() => loadEnv({ ...production, FEDIVERSE_ALLOW_LOOPBACK: "true" })).toThrow(
      /FEDIVERSE_ALLOW_LOOPBACK/,
    );
    expect(loadEnv({ DATA_DIR: dataDir() }).FEDIVERSE).toEqual({ available: false, allowedHosts: [] });
    expect(loadEnv({ DATA_DIR: dataDir(), FEDIVERSE_ALLOW_LOOPBACK: "true" }).FEDIVERSE).toEqual({
      available: true,
      allowedHosts: ["127.0.0.1", "localhost", "::1"],
    });
  });
});
