import { startFakeBluesky } from "../../apps/server/test/fakes/bluesky.ts";
import { startFakeMastodon } from "../../apps/server/test/fakes/mastodon.ts";
import { startFakeServer } from "../../apps/server/test/fakes/server.ts";

/** The e2e server's bot on each network (the fakes know these accounts). */
export const E2E_BLUESKY_BOT = "curate.bsky.social";
const E2E_BLUESKY_PASSWORD = "e2e-app-pass-word";
export const E2E_MASTODON_DOMAIN = "social.example";
export const E2E_MASTODON_BOT = "curate";
const E2E_MASTODON_TOKEN = "e2e-mastodon-token";

/**
 * A Bluesky PDS/AppView and a Mastodon instance the e2e server reads mentions from, plus a control address the
 * journeys (other processes) post through as people on those networks would.
 */
export async function startFakeNetworks() {
  const bluesky = await startFakeBluesky({ handle: E2E_BLUESKY_BOT, appPassword: E2E_BLUESKY_PASSWORD });
  const mastodon = await startFakeMastodon({
    accessToken: E2E_MASTODON_TOKEN,
    botUsername: E2E_MASTODON_BOT,
    domain: E2E_MASTODON_DOMAIN,
  });
  const control = await startFakeServer((request) => {
    if (request.method === "POST" && request.path === "/bluesky/posts") {
      const uri = bluesky.addPost(request.body);
      return { status: 201, body: { uri } };
    }
    if (request.method === "POST" && request.path === "/mastodon/posts") {
      const status = mastodon.post(request.body);
      return { status: 201, body: { id: status.id, url: status.url } };
    }
    return { status: 404, body: { message: "no such control" } };
  });
  return {
    controlUrl: control.url,
    env: {
      BLUESKY_SERVICE_URL: bluesky.url,
      BLUESKY_IDENTIFIER: E2E_BLUESKY_BOT,
      BLUESKY_APP_PASSWORD: E2E_BLUESKY_PASSWORD,
      MASTODON_BASE_URL: mastodon.url,
      MASTODON_ACCESS_TOKEN: E2E_MASTODON_TOKEN,
      MASTODON_BOT_ACCT: `${E2E_MASTODON_BOT}@${E2E_MASTODON_DOMAIN}`,
    },
    async close() {
      await Promise.all([bluesky.close(), mastodon.close(), control.close()]);
    },
  };
}

/** Posts as someone on a fake network through the control address the global setup provides. */
export async function postOn<T>(
  controlUrl: string,
  network: "bluesky" | "mastodon",
  input: Record<string, unknown>,
): Promise<T> {
  const response = await fetch(`${controlUrl}/${network}/posts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw new Error(`The fake ${network} refused the post: ${await response.text()}`);
  return (await response.json()) as T;
}
