import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { startFakeTelegram } from "../apps/server/test/fakes/telegram.ts";
import { chromiumExecutable } from "./support/chromium.ts";
import { E2E_AI_KEY, startFakeAi } from "./support/fake-ai.ts";
import { startFakeCrosspost } from "./support/fake-crosspost.ts";
import { startFakeNetworks } from "./support/fake-networks.ts";
import { E2E_TELEGRAM_CHAT, E2E_TELEGRAM_TOKEN } from "./support/fake-telegram.ts";
import { MODERATOR_ACCOUNT_ID } from "./support/moderator.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** One stack (server and fakes) per test worker; a file uses its worker's (support/stack.ts). */
    stacks: ProvidedStack[];
  }
}

/** What a journey file is told of its stack; it waits for the server to answer before its first journey. */
export interface ProvidedStack {
  baseUrl: string;
  /** Where journeys post as people on the fake Bluesky and Mastodon (support/fake-networks.ts). */
  networksControlUrl: string;
  /** The server's output, for the message of a stack that does not come up. */
  outputFile: string;
  /** Written with the exit code when the server stops before it is told to. */
  exitFile: string;
  /** How long a file waits for its server to answer. */
  startTimeoutMs: number;
  /** The worker's browser, which each file connects to for contexts of its own (support/browser.ts). */
  browserEndpoint: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_ENTRY = "apps/server/src/main.ts";
const BUILT_APP = path.join(ROOT, "apps/web/dist/index.html");
// Only stops a server that never comes up: a machine running a second gate beside this one can take minutes to start three.
const START_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Journeys run in as many workers as the project allows, each worker's files one after another against a stack of
 * its own — the real server on a fresh, demo-seeded embedded database, and fakes of the services it calls — so no
 * journey sees another's writes while it runs, as when all ran in one line.
 *
 * The servers are started here but not waited for: each takes ~25 s of CPU to start (a fresh database, the demo
 * data and its runs), and waiting held every test file of the run back by ~50 s on two cores. A journey file waits
 * for its own server instead (support/stack.ts); in the gate the unit files run first meanwhile.
 */
export default async function setup(project: TestProject) {
  // Unpacks the npm package's Chromium once, before the stacks' browsers start.
  await chromiumExecutable();
  if (!existsSync(BUILT_APP)) {
    throw new Error(`No built web app at ${BUILT_APP}: run "npm run build" before the e2e project.`);
  }
  // One stack per worker slot of the run (VITEST_POOL_ID is a slot's number), whichever slots the journeys get.
  const workers = project.config.maxWorkers || project.globalConfig.maxWorkers || 1;
  const ports = await freePorts(workers);
  const stacks = await Promise.all(ports.map((port) => startStack(port)));
  project.provide(
    "stacks",
    stacks.map(({ stop: _stop, ...provided }) => provided),
  );
  return async () => {
    await Promise.all(stacks.map((stack) => stack.stop()));
  };
}

/**
 * The real server and the fakes it talks to, on free ports, with a data folder of their own; and the worker's
 * browser. A file used to launch a Chromium of its own (and some files two or three): ~0.5 s of CPU and one to two
 * seconds each on the 2-core machine, against ~0.1 s to connect; every file still gets fresh contexts, which share
 * no cookies, storage or cache.
 */
async function startStack(port: number): Promise<ProvidedStack & { stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "curate-e2e-"));
  const logDir = mkdtempSync(path.join(tmpdir(), "curate-e2e-log-"));
  const outputFile = path.join(logDir, "server-output.log");
  const exitFile = path.join(logDir, "server-exit");
  const baseUrl = `http://127.0.0.1:${port}`;
  const fakeAi = await startFakeAi();
  const fakeTelegram = await startFakeTelegram({ token: E2E_TELEGRAM_TOKEN, chats: [E2E_TELEGRAM_CHAT] });
  const fakeCrosspost = await startFakeCrosspost();
  const fakeNetworks = await startFakeNetworks();
  const browser = await startBrowserServer();

  // The server writes straight to a file: nothing in this process has to read it while the tests run.
  const output = openSync(outputFile, "a");
  // Node runs the TypeScript itself (type stripping): one process, so stopping it stops everything it started.
  const server = spawn(process.execPath, [SERVER_ENTRY, "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      // Every answer the web app gets in a journey is checked against its route's contract, as in the API tests.
      CHECK_RESPONSE_CONTRACTS: "true",
      SEED_DEMO_DATA: "true",
      PUBLIC_URL: baseUrl,
      // The moderation journey's fixed development-wallet account moderates every feed as a super admin.
      SUPER_ADMIN_ACCOUNTS: MODERATOR_ACCOUNT_ID,
      // Every journey signs in from the same address; the per-IP sign-in limit is for the internet, not this run.
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      // Every journey also writes as that one moderator, faster than a person could: at the default of 60 writes
      // a minute a late journey's approval got a 429 and was rolled back.
      WRITE_RATE_LIMIT_PER_MINUTE: "5000",
      // Most journeys create a feed as that one moderator, which owns demo feeds too: with two servers in the gate
      // each sees half the journeys, more than the default 20 feeds an account may own.
      FEEDS_PER_ACCOUNT: "200",
      // The long-queue journey reloads the page while its run goes on: at 0.7 s between chunks, its 11 chunks
      // outlast a reload even on a quiet machine, where the default pause finished them first.
      BULK_RUN_CHUNK_PAUSE_MS: "700",
      // AI steps talk to a local fake whose answer depends on the post (support/fake-ai.ts); feeds name the key
      // as {{E2E_AI_KEY}}.
      AI_API_BASE_URL: fakeAi.baseUrl,
      E2E_AI_KEY,
      PLUGIN_SECRETS: "E2E_AI_KEY",
      // Telegram steps talk to a local fake of the Bot API (its token reaches a feed only as one of its secrets).
      TELEGRAM_API_BASE_URL: fakeTelegram.apiRoot,
      // Connected accounts: the browser and the server both talk to a local Crosspost (support/fake-crosspost.ts).
      CROSSPOST_API_URL: fakeCrosspost.baseUrl,
      // Bluesky and Mastodon intake read the bot's mentions from local fakes (and feeds their sources) every five
      // seconds, as mail and the fediverse deliver by default. A journey waits a few seconds longer for a post, a
      // mail or an Accept; at each second the three passes cost every server ~5 % of a core through the whole run,
      // API files included (~110 s of CPU a run, measured).
      ...fakeNetworks.env,
      INTAKE_INTERVAL_MS: "5000",
      // The fakes have no rate limit: a tenth of each channel's pace keeps sends ordered, in less time.
      CHANNEL_PACING_PERCENT: "10",
      // The plugin journey registers entry points on this host (nothing is fetched from it); others are refused.
      PLUGIN_ALLOWED_HOSTS: "plugins.e2e.test",
      // The platforms journey's feed reads a blog served by the test itself on this machine.
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
      // The email journey reads its mails from the development catch-all (GET /api/test/mails).
      EMAIL_DEV_CATCHALL: "true",
      // The fediverse journey follows a feed from a reader served by the test on this machine (http, loopback),
      // and waits for its Accept.
      FEDIVERSE_ALLOW_LOOPBACK: "true",
      // Public pages render on the server unless their data is later than this; the journeys that check the
      // server-rendered first paint need it rendered on a busy machine too (the fallback has its own API test).
      SSR_TIMEOUT_MS: "10000",
    },
    stdio: ["ignore", output, output],
  });
  closeSync(output);
  let stopping = false;
  server.once("exit", (code, signal) => {
    if (!stopping) writeFileSync(exitFile, String(code ?? signal));
  });

  const stop = async () => {
    stopping = true;
    await stopServer(server);
    await fakeAi.close();
    await fakeTelegram.close();
    await fakeCrosspost.close();
    await fakeNetworks.close();
    await browser.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  };
  return {
    baseUrl,
    networksControlUrl: fakeNetworks.controlUrl,
    outputFile,
    exitFile,
    startTimeoutMs: START_TIMEOUT_MS,
    browserEndpoint: browser.endpoint,
    stop,
  };
}

/** Starts support/browser-server.ts and reads the endpoint it prints. */
async function startBrowserServer(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(ROOT, "e2e/support/browser-server.ts")], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      const line = printed.split("\n")[0];
      if (printed.includes("\n")) resolve(line.trim());
    });
    child.once("exit", (code) =>
      reject(new Error(`The journeys' browser exited (${code}) before it started.`)),
    );
  });
  return { endpoint, stop: () => stopServer(child) };
}

/**
 * Ports for the servers, below the range the system hands out to `listen(0)`: a server binds its port only after
 * ~25 s of start-up, and in the gate the API files' servers, in the process beside this one, take ephemeral ports
 * all the while — one of them took a port chosen from that range before its journey server could. Each candidate
 * is probed (bound, then let go); no two are the same.
 */
async function freePorts(count: number): Promise<number[]> {
  const floor = 10_000;
  const ceiling = Math.min(ephemeralFloor(), 32_768);
  const ports: number[] = [];
  while (ports.length < count) {
    const candidate = floor + Math.floor(Math.random() * (ceiling - floor));
    if (!ports.includes(candidate) && (await isFree(candidate))) ports.push(candidate);
  }
  return ports;
}

/** Where Linux starts handing out ports to `listen(0)`; other systems start higher than 32768. */
function ephemeralFloor(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return Number(low) > 10_000 ? Number(low) : 32_768;
  } catch {
    return 32_768;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
