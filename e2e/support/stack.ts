import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import type { ProvidedStack } from "../global-setup.ts";

/**
 * The stack (server and fakes) of the worker running this file: global-setup.ts starts one per worker, and a
 * worker runs its files one after another, so a journey never shares its server with one running beside it.
 */
function ownStack(): ProvidedStack {
  const stacks = inject("stacks");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const stack = stacks[(worker - 1) % stacks.length];
  if (!stack) throw new Error("No e2e stack was started: run the e2e project through vitest.");
  return stack;
}

/** The last lines the server wrote, for a stack that did not come up. */
function serverOutput(stack: ProvidedStack): string {
  const output = existsSync(stack.outputFile) ? readFileSync(stack.outputFile, "utf8") : "";
  return output.split("\n").slice(-200).join("\n");
}

/**
 * Resolves once the server answers its health check; rejects, with what the server wrote, when it exited or did
 * not answer in time. The global setup starts the servers without waiting for them (global-setup.ts).
 */
async function untilServing(stack: ProvidedStack): Promise<void> {
  const deadline = Date.now() + stack.startTimeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(stack.exitFile)) {
      const code = readFileSync(stack.exitFile, "utf8");
      throw new Error(
        `The e2e server exited (${code}) while starting.\n--- server output ---\n${serverOutput(stack)}`,
      );
    }
    try {
      if ((await fetch(`${stack.baseUrl}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(
    `The e2e server did not answer ${stack.baseUrl}/api/health within ${stack.startTimeoutMs / 1000} s.\n` +
      `--- server output ---\n${serverOutput(stack)}`,
  );
}

const stack = ownStack();
await untilServing(stack);

/** The app's address for this file's journeys. */
export const baseUrl = stack.baseUrl;
/** Where journeys post as people on the fake Bluesky and Mastodon (support/fake-networks.ts). */
export const networksControlUrl = stack.networksControlUrl;
/** The worker's browser (global-setup.ts), shared by its files one after another. */
export const browserEndpoint = stack.browserEndpoint;
