import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { CHROMIUM_ARGS, chromiumExecutable } from "./chromium.ts";

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
    executablePath: await chromiumExecutable(),
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
  });
  // Waits are for states; these only bound a journey that would otherwise hang, on a machine that may be busy.
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(60_000);
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
  await hydrated(page);
  return { page, pageErrors };
}

/**
 * Waits until a server-rendered page has become the app (its HTML is on screen before its code, and a click before
 * hydration does nothing, as for a person who clicks too early); a client-rendered page is the app at once.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.getElementById("curate-ssr-state") || document.documentElement.dataset.hydrated === "true",
  );
}

export interface BrowserSessionOptions {
  /** Runs once the browser is up, e.g. to route external requests to fakes. */
  setup?(context: BrowserContext): Promise<void>;
  /** Runs after each test, before its pages close, with the first page it opened. */
  afterEachTest?(firstPage: Page | undefined): Promise<void>;
}

/**
 * One browser for a test file: registers the hooks that launch it, close each test's pages and close it at the
 * end, and returns `visit` to open a page of the app.
 */
export function browserSession(baseUrl: string, options: BrowserSessionOptions = {}) {
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  const opened: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    await options.setup?.(browser.context);
  });
  afterEach(async () => {
    await options.afterEachTest?.(opened[0]);
    await Promise.all(opened.splice(0).map((page) => page.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get context(): BrowserContext {
      if (!browser) throw new Error("the browser starts in beforeAll");
      return browser.context;
    },
    /** A blank page closed after the test, for journeys that listen before navigating. */
    async newPage(): Promise<Page> {
      const page = await this.context.newPage();
      opened.push(page);
      return page;
    },
    async visit(pathAndQuery: string, viewport?: Viewport): Promise<OpenedPage> {
      const result = await openPage(this.context, `${baseUrl}${pathAndQuery}`, viewport);
      opened.push(result.page);
      return result;
    },
  };
}
