import type { AppConfig } from "@curate/core";
import type { AppEnv } from "./env.ts";

/**
 * The networks whose commands intake reads, by the same conditions that turn each source on (intake/runtime.ts):
 * what the web tells people they can post to.
 */
export function listeningNetworks(env: AppEnv): AppConfig["networks"] {
  const networks: AppConfig["networks"] = [];
  if (env.X_BEARER_TOKEN || env.ENABLE_TEST_ROUTES)
    networks.push({ platform: "twitter", handle: env.BOT_HANDLE });
  if (env.BLUESKY_IDENTIFIER && env.BLUESKY_APP_PASSWORD) {
    networks.push({ platform: "bluesky", handle: env.BLUESKY_IDENTIFIER });
  }
  if (env.MASTODON_BASE_URL && env.MASTODON_ACCESS_TOKEN) {
    networks.push({ platform: "mastodon", handle: env.MASTODON_BOT_ACCT?.replace(/^@/, "") ?? null });
  }
  if (env.TELEGRAM_INTAKE_BOT_TOKEN) networks.push({ platform: "telegram", handle: null });
  return networks;
}
