/**
 * Web budgets on the production build (DESIGN §9): initial JavaScript for / (gzip, everything the browser fetches
 * to show the page), and Lighthouse performance, accessibility, best practices and SEO on /, /leaderboard and a
 * feed page with the mobile and desktop presets, in headless Chromium against the embedded server with demo data
 * (the public pages are server-rendered: docs/decisions/0018-server-rendered-pages.md).
 * Usage: npm run bench:web   (builds first; env: CHROMIUM_PATH to use another Chromium, BENCH_WEB_PORT,
 * BENCH_WEB_RUNS: Lighthouse runs per page and preset, the median is reported, default 1)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { chromium } from "playwright-core";
import { chromiumExecutable } from "../e2e/support/chromium.ts";

const PORT = Number(process.env.BENCH_WEB_PORT ?? 3950);
const BASE = `http://127.0.0.1:${PORT}`;
const JS_BUDGET_KB = 150;
const SCORE_GOAL = 95;
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 1));
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
type Preset = "mobile" | "desktop";
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
  const child = spawn(process.execPath, ["apps/server/src/main.ts", "serve"], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      SESSION_SECRET: "bench-web-session-secret-bench-web-session",
      LOG_SIGNING_KEY: "be".repeat(32),
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      PUBLIC_URL: BASE,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 360; i++) {
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
  const browser = await chromium.launch({ executablePath: await chromiumExecutable(), args: CHROME_FLAGS });
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

interface Scores {
  url: string;
  preset: Preset;
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function lighthouseScores(urls: string[]): Promise<Scores[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: await chromiumExecutable(),
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const results: Scores[] = [];
    for (const preset of ["mobile", "desktop"] as const) {
      for (const url of urls) {
        const runs: Scores[] = [];
        for (let run = 0; run < RUNS; run++) {
          const result = await lighthouse(
            url,
            { port: chrome.port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] },
            preset === "desktop" ? desktopConfig : undefined,
          );
          const lhr = result?.lhr;
          const audit = (id: string) => lhr?.audits[id]?.numericValue ?? Number.NaN;
          runs.push({
            url,
            preset,
            scores: Object.fromEntries(
              CATEGORIES.map((id) => [id, Math.round((lhr?.categories[id]?.score ?? 0) * 100)]),
            ) as Record<Category, number>,
            fcpMs: audit("first-contentful-paint"),
            lcpMs: audit("largest-contentful-paint"),
            tbtMs: audit("total-blocking-time"),
            cls: audit("cumulative-layout-shift"),
          });
          const failed = Object.values(lhr?.audits ?? {}).filter(
            (a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === "binary",
          );
          if (failed.length > 0)
            log(`  ${preset} ${url}: failing audits ${failed.map((a) => a.id).join(", ")}`);
        }
        // The run with the median performance score stands for the page.
        const perf = median(runs.map((r) => r.scores.performance));
        results.push(runs.find((r) => r.scores.performance === perf) ?? runs[0]);
      }
    }
    return results;
  } finally {
    chrome.kill();
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
    const results = await lighthouseScores([`${BASE}/`, `${BASE}/leaderboard`, feedPage]);
    log(
      `\n${"page".padEnd(34)}${"preset".padEnd(9)}${"perf".padStart(6)}${"a11y".padStart(6)}${"best".padStart(6)}${"seo".padStart(6)}${"FCP".padStart(9)}${"LCP".padStart(9)}${"TBT".padStart(8)}${"CLS".padStart(7)}`,
    );
    for (const r of results) {
      log(
        `${r.url.replace(BASE, "").padEnd(34)}${r.preset.padEnd(9)}${CATEGORIES.map((c) => String(r.scores[c]).padStart(6)).join("")}${`${Math.round(r.fcpMs)} ms`.padStart(9)}${`${Math.round(r.lcpMs)} ms`.padStart(9)}${`${Math.round(r.tbtMs)} ms`.padStart(8)}${r.cls.toFixed(3).padStart(7)}`,
      );
    }
    const met =
      js.gzipKb <= JS_BUDGET_KB && results.every((r) => CATEGORIES.every((c) => r.scores[c] >= SCORE_GOAL));
    log(
      `\nbudgets (JS <= ${JS_BUDGET_KB} KB, every Lighthouse category >= ${SCORE_GOAL}): ${met ? "MET" : "NOT MET"}`,
    );
  } finally {
    server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`web bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
