/**
 * Web budgets on the production build (DESIGN §9): initial JavaScript for / (gzip, everything the browser fetches
 * to show the page), and Lighthouse performance and accessibility on /, /leaderboard and a feed page, in headless
 * Chromium against the embedded server with demo data.
 * Usage: npm run bench:web   (builds first; env: CHROME_PATH, BENCH_WEB_PORT)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const PORT = Number(process.env.BENCH_WEB_PORT ?? 3950);
const BASE = `http://127.0.0.1:${PORT}`;
const JS_BUDGET_KB = 150;
const SCORE_GOAL = 95;
const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const log = (message: string) => process.stdout.write(`${message}\n`);

async function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts", "serve"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      SESSION_SECRET: "bench-web-session-secret-bench-web-session",
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      PUBLIC_URL: BASE,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill();
  throw new Error("server did not start");
}

/** Every script the browser fetches to render / (entry, preloads and the route's lazy chunks), gzipped. */
async function initialJavaScript(): Promise<{ files: number; gzipKb: number }> {
  const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const scripts = new Map<string, number>();
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      const body = await response.body().catch(() => null);
      if (body) scripts.set(response.url(), gzipSync(body, { level: 9 }).length);
    });
    await page.goto(`${BASE}/`, { waitUntil: "networkidle" });
    await page.waitForTimeout(500);
    const bytes = [...scripts.values()].reduce((a, b) => a + b, 0);
    return { files: scripts.size, gzipKb: Math.round((bytes / 1024) * 10) / 10 };
  } finally {
    await browser.close();
  }
}

async function lighthouseScores(urls: string[]) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
  try {
    const results: Array<{ url: string; performance: number; accessibility: number }> = [];
    for (const url of urls) {
      const run = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
      });
      const categories = run?.lhr.categories;
      results.push({
        url,
        performance: Math.round((categories?.performance?.score ?? 0) * 100),
        accessibility: Math.round((categories?.accessibility?.score ?? 0) * 100),
      });
    }
    return results;
  } finally {
    await chrome.kill();
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "curate-bench-web-"));
  const server = await startServer(dataDir);
  try {
    const feeds = (await (await fetch(`${BASE}/api/feeds`)).json()) as { data: Array<{ id: string }> };
    const feedPage = `${BASE}/feed/${feeds.data[0].id}/curation`;
    const js = await initialJavaScript();
    log(`initial JavaScript for /: ${js.gzipKb} KB gzip in ${js.files} files (budget ${JS_BUDGET_KB} KB)`);
    const scores = await lighthouseScores([`${BASE}/`, `${BASE}/leaderboard`, feedPage]);
    log(`\n${"page".padEnd(48)}${"performance".padStart(13)}${"accessibility".padStart(15)}`);
    for (const s of scores) {
      log(
        `${s.url.replace(BASE, "").padEnd(48)}${String(s.performance).padStart(13)}${String(s.accessibility).padStart(15)}`,
      );
    }
    const met =
      js.gzipKb <= JS_BUDGET_KB &&
      scores.every((s) => s.performance >= SCORE_GOAL && s.accessibility >= SCORE_GOAL);
    log(`\nbudgets (JS <= ${JS_BUDGET_KB} KB, Lighthouse >= ${SCORE_GOAL}): ${met ? "MET" : "NOT MET"}`);
  } finally {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`web bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
