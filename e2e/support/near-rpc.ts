import type { BrowserContext, Route } from "playwright-core";

/** The NEAR RPC the web app reads NEAR Social profiles from (NEAR_RPC_URL in features/profile/social.ts). */
export const NEAR_RPC_URL = "https://rpc.mainnet.near.org";

export interface FakeSocialProfile {
  name?: string;
  image?: { url?: string; ipfs_cid?: string };
}

/**
 * Answers the app's NEAR Social look-ups locally, in the JSON-RPC wire format of a `call_function` query on
 * social.near. Accounts without an entry get the empty object the contract returns for unknown profiles.
 */
export async function fakeNearSocial(
  context: BrowserContext,
  profiles: Record<string, FakeSocialProfile> = {},
) {
  await context.route(`${NEAR_RPC_URL}/**`, (route) => answerRpc(route, profiles));
  await context.route(NEAR_RPC_URL, (route) => answerRpc(route, profiles));
}

function answerRpc(route: Route, profiles: Record<string, FakeSocialProfile>) {
  const request = route.request().postDataJSON() as {
    id: string;
    params: { account_id: string; method_name: string; args_base64: string };
  };
  const args = JSON.parse(Buffer.from(request.params.args_base64, "base64").toString("utf8")) as {
    keys?: string[];
  };
  const result: Record<string, unknown> = {};
  if (request.params.account_id === "social.near" && request.params.method_name === "get") {
    for (const key of args.keys ?? []) {
      const account = key.split("/")[0];
      const profile = profiles[account];
      if (profile) result[account] = { profile };
    }
  }
  return route.fulfill({
    contentType: "application/json",
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: request.id,
      result: {
        result: [...Buffer.from(JSON.stringify(result))],
        logs: [],
        block_height: 1,
        block_hash: "fake",
      },
    }),
  });
}

/** Fails every request that leaves the app's own origin, so a journey can never depend on the internet. */
export async function blockExternalRequests(context: BrowserContext, baseUrl: string) {
  const origin = new URL(baseUrl).origin;
  await context.route(
    (url) => url.origin !== origin && url.href !== NEAR_RPC_URL && !url.href.startsWith(`${NEAR_RPC_URL}/`),
    (route) => route.abort("internetdisconnected"),
  );
}
