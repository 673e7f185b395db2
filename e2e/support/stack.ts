import { inject } from "vitest";

/**
 * The stack (server and fakes) of the worker running this file: global-setup.ts starts one per worker, and a
 * worker runs its files one after another, so a journey never shares its server with one running beside it.
 */
function ownStack() {
  const stacks = inject("stacks");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const stack = stacks[(worker - 1) % stacks.length];
  if (!stack) throw new Error("No e2e stack was started: run the e2e project through vitest.");
  return stack;
}

const stack = ownStack();

/** The app's address for this file's journeys. */
export const baseUrl = stack.baseUrl;
/** Where journeys post as people on the fake Bluesky and Mastodon (support/fake-networks.ts). */
export const networksControlUrl = stack.networksControlUrl;
