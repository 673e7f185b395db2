import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEnv } from "./env.ts";
import { listeningNetworks } from "./networks.ts";

const envWith = (vars: Record<string, string>) =>
  loadEnv({
    NODE_ENV: "production",
    SESSION_SECRET: "s".repeat(48),
    LOG_SIGNING_KEY: "a".repeat(64),
    PUBLIC_URL: "https://curate.example",
    DATA_DIR: mkdtempSync(join(tmpdir(), "curate-networks-")),
    ...vars,
  });

describe("listeningNetworks", () => {
  it("names no network when no source has credentials (production, no test posts)", () => {
    expect(listeningNetworks(envWith({}))).toEqual([]);
  });

  it("names each network whose source intake turns on, with the bot's handle there", () => {
    const env = envWith({
      BOT_HANDLE: "curatebot",
      X_BEARER_TOKEN: "x-token",
      BLUESKY_IDENTIFIER: "@Curate.bsky.social",
      BLUESKY_APP_PASSWORD: "abcd-efgh-ijkl-mnop",
      MASTODON_BASE_URL: "https://fosstodon.org",
      MASTODON_ACCESS_TOKEN: "m-token",
      MASTODON_BOT_ACCT: "@curate@fosstodon.org",
      TELEGRAM_INTAKE_BOT_TOKEN: "123456:AAH-abcdefghijklmnopqrstuvwxyz",
    });
    expect(listeningNetworks(env)).toEqual([
      { platform: "twitter", handle: "curatebot" },
      { platform: "bluesky", handle: "curate.bsky.social" },
      { platform: "mastodon", handle: "curate@fosstodon.org" },
      { platform: "telegram", handle: null },
    ]);
  });

  it("leaves out a network with half its credentials, as intake does", () => {
    const env = envWith({
      BLUESKY_IDENTIFIER: "curate.bsky.social",
      MASTODON_BASE_URL: "https://fosstodon.org",
    });
    expect(listeningNetworks(env)).toEqual([]);
  });
});
