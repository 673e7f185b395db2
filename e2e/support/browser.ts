import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";

// Without the networking flags Chromium tries to reach the internet at start and stalls.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1440, height: 900 };
export const PHONE: Viewport = { width: 375, height: 812 };

/** A fresh Chromium profile per test file; close() also removes the profile. */
export async function launchBrowser() {
  const profile = mkdtempSync(path.join(tmpdir(), "curate-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  /** Uncaught errors thrown in the page; a journey that crashes the app must not pass. */
  pageErrors: Error[];
}

export async function openPage(
  context: BrowserContext,
  url: string,
  viewport: Viewport = DESKTOP,
): Promise<OpenedPage> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const pageErrors: Error[] = [];
  page.on("pageerror", (error) => pageErrors.push(error));
  await page.goto(url);
  return { page, pageErrors };
}
