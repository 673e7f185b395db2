/**
 * Soak: the real server (its own process, demo data) under 60 s of mixed reads and writes at 50 connections.
 * Reports the server's memory (RSS) before, right after and after settling, errors, 5xx and p99. Goal: memory flat
 * and zero 5xx.
 * Usage: npm run bench:soak   (env: BENCH_DRIVERS, BENCH_SOAK_SECONDS, BENCH_SOAK_CONNECTIONS, BENCH_DATABASE_URL)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { newKey, signToken } from "../apps/server/test/near.ts";
import { ADMIN_URL, type Driver, openFreshDatabase, postgresReachable } from "./db.ts";

const env = process.env;
const DRIVERS = (env.BENCH_DRIVERS ?? "pglite,postgres").split(",").map((d) => d.trim()) as Driver[];
const SECONDS = Number(env.BENCH_SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(env.BENCH_SOAK_CONNECTIONS ?? 50);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PORT = 3900;
const BASE = `http://127.0.0.1:${PORT}`;
const log = (message: string) => process.stdout.write(`${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function waitForHealth(child: ChildProcess) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error("server did not start");
}

async function signIn(): Promise<{ cookie: string; accountId: string }> {
  const key = newKey();
  const accountId = key.implicitAccountId;
  const started = (await (
    await fetch(`${BASE}/api/auth/initiate-login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ accountId }),
    })
  ).json()) as { data: { nonce: string; recipient: string } };
  const token = signToken({ key, accountId, nonce: started.data.nonce, recipient: started.data.recipient });
  const verified = await fetch(`${BASE}/api/auth/verify-login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token, accountId }),
  });
  return { cookie: verified.headers.getSetCookie()[0].split(";")[0], accountId };
}

async function soak(driver: Driver) {
  const dataDir = mkdtempSync(join(tmpdir(), "curate-soak-"));
  const scratch = driver === "postgres" ? await openFreshDatabase("postgres", "curate_bench_soak") : null;
  const databaseUrl = scratch ? (scratch.handle.connection as { url: string }).url : undefined;
  await scratch?.handle.close();
  const child = spawn(process.execPath, ["apps/server/src/main.ts", "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: "development",
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      WRITE_RATE_LIMIT_PER_MINUTE: "100000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitForHealth(child);
    const pid = child.pid as number;
    const feeds = ((await (await fetch(`${BASE}/api/feeds`)).json()) as { data: Array<{ id: string }> }).data;
    const writers = await Promise.all(Array.from({ length: 5 }, signIn));
    const reads = [
      "/api/submissions?page=0&limit=20",
      "/api/submissions?status=approved",
      "/api/submissions?q=the",
      "/api/feeds",
      "/api/leaderboard?timeRange=week",
      ...feeds.slice(0, 6).map((f) => `/api/submissions/feed/${f.id}?sortOrder=oldest`),
      ...feeds.slice(0, 4).map((f) => `/api/feeds/${f.id}`),
    ];
    // Warm up, then measure memory at rest.
    for (const path of reads) await fetch(`${BASE}${path}`);
    await sleep(2000);
    const before = rssMb(pid);
    let sequence = 0;
    const result = await autocannon({
      url: BASE,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request) => {
            sequence++;
            // One request in five writes: a test post that intake turns into a submission (cache-busting reads too).
            if (sequence % 5 === 0) {
              const writer = writers[sequence % writers.length];
              const feed = feeds[sequence % feeds.length];
              return {
                ...request,
                method: "POST",
                path: "/api/test/tweets",
                headers: { "content-type": "application/json", cookie: writer.cookie, origin: BASE },
                body: JSON.stringify({
                  text: `!submit @curatedotfun #${feed.id} soak ${sequence}`,
                  username: `soaker${sequence % 50}`,
                }),
              };
            }
            const path = reads[sequence % reads.length];
            return {
              ...request,
              method: "GET",
              path: `${path}${path.includes("?") ? "&" : "?"}v=${sequence}`,
            };
          },
        },
      ],
    });
    const after = rssMb(pid);
    await sleep(10_000);
    const settled = rssMb(pid);
    const statuses = result.statusCodeStats as Record<string, { count: number }> | undefined;
    const fivexx = Object.entries(statuses ?? {})
      .filter(([code]) => Number(code) >= 500)
      .reduce((sum, [, stat]) => sum + stat.count, 0);
    const row = {
      driver,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      fivexx,
      statuses: Object.fromEntries(Object.entries(statuses ?? {}).map(([code, stat]) => [code, stat.count])),
      before,
      after,
      settled,
    };
    log(
      `  ${driver}: ${row.requests} requests (${row.rps}/s), p99 ${row.p99} ms, ${row.errors} errors, ${row.fivexx} 5xx, ` +
        `statuses ${JSON.stringify(row.statuses)}; RSS ${before} MB before, ${after} MB after, ${settled} MB settled`,
    );
    return row;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await scratch?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const rows = [];
  for (const driver of DRIVERS) {
    if (driver === "postgres" && !(await postgresReachable())) {
      log(`== postgres: not reachable at ${ADMIN_URL}, skipped`);
      continue;
    }
    log(`== ${driver}: ${SECONDS} s, ${CONNECTIONS} connections, 1 write in 5`);
    rows.push(await soak(driver));
  }
  // Flat: what is left after settling stays within a small margin of the resting size (caches are bounded).
  const flat = rows.every((r) => r.settled <= r.before * 1.25 + 30);
  const clean = rows.every((r) => r.fivexx === 0 && r.errors === 0);
  log(`goal (memory flat, zero 5xx, no errors): ${flat && clean ? "MET" : "NOT MET"}`);
}

main().catch((error) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
