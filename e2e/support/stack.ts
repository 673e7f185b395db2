import { get } from "node:http";
import { inject } from "vitest";
import type { StackAddress } from "../global-setup.ts";

/**
 * The stack (server and fakes) of the worker running this file, started by global-setup.ts at its first journey's
 * request. A worker runs its files one after another, so a journey never shares its server with one running beside it.
 */
function ownStack(): Promise<StackAddress> {
  const worker = process.env.VITEST_POOL_ID ?? "1";
  // node:http rather than fetch: a stack's start on a busy machine can outlast fetch's five-minute header timeout.
  return new Promise((resolve, reject) => {
    get(`${inject("stackBroker")}/?slot=${worker}`, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => {
        if (response.statusCode === 200) resolve(JSON.parse(body) as StackAddress);
        else reject(new Error(`No e2e stack for worker ${worker}: ${body}`));
      });
    }).on("error", reject);
  });
}

const stack = await ownStack();

/** The app's address for this file's journeys. */
export const baseUrl = stack.baseUrl;
/** Where journeys post as people on the fake Bluesky and Mastodon (support/fake-networks.ts). */
export const networksControlUrl = stack.networksControlUrl;
