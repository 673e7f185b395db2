import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, type TestContext } from "vitest";
import { browserEndpoint } from "./stack.ts";

export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1440, height: 900 };
export const PHONE: Viewport = { width: 375, height: 812 };

/**
 * A fresh context in the worker's browser: no cookies, storage or cache from the files before. close() closes the
 * context and this file's connection, not the browser.
 */
export async function launchBrowser() {
  const browser = await chromium.connect(browserEndpoint);
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: "reduce" });
  // Waits are for states; these only bound a journey that would otherwise hang, on a machine that may be busy. Two
  // gates side by side on the slower 2-core machine (load ~16) once kept a page's first answer past 60 s.
  context.setDefaultTimeout(120_000);
  context.setDefaultNavigationTimeout(120_000);
  context.on("page", navigationsWaitForTheApp);
  context.on("page", recordRefusedRequests);
  await context.addInitScript(recordToasts, HISTORY_LENGTH);
  return {
    context,
    async close() {
      await context.close();
      await browser.close();
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
 * A navigation that waits for the page's load (the default) also waits for the app to hydrate: the server's HTML
 * shows its buttons before their code runs, and a journey's click in between did nothing when the machine was busy
 * (an Approve that never approved). Journeys that look at the page before its code runs navigate with
 * `waitUntil: "domcontentloaded"` or "commit", which this leaves alone.
 */
function navigationsWaitForTheApp(page: Page) {
  const waitsForLoad = (options?: { waitUntil?: string }) => (options?.waitUntil ?? "load") === "load";
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (waitsForLoad(options)) await hydrated(page);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    if (waitsForLoad(options)) await hydrated(page);
    return response;
  };
}

/** What a failure description keeps of a page's history, newest last. */
const HISTORY_LENGTH = 30;

/** The page's requests the server refused (4xx/5xx) or that never got an answer, for a failure's description. */
const refusedRequests = new WeakMap<Page, string[]>();

function recordRefusedRequests(page: Page) {
  const seen: string[] = [];
  refusedRequests.set(page, seen);
  const started = Date.now();
  const note = (line: string) => {
    seen.push(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`);
    if (seen.length > HISTORY_LENGTH) seen.shift();
  };
  page.on("response", (response) => {
    if (response.status() < 400) return;
    const url = new URL(response.url());
    note(`${response.request().method()} ${url.pathname} → ${response.status()}`);
  });
  page.on("requestfailed", (request) => {
    const url = new URL(request.url());
    note(`${request.method()} ${url.pathname} failed: ${request.failure()?.errorText ?? "no answer"}`);
  });
}

/**
 * Runs in every page before its own code: keeps each toast's text as it appears, since a toast that said why a
 * click did nothing is long gone when a wait for something else times out.
 */
function recordToasts(limit: number) {
  const log: string[] = [];
  const shown = new WeakSet<Element>();
  (window as unknown as { __toastLog: string[] }).__toastLog = log;
  const observer = new MutationObserver(() => {
    for (const toast of document.querySelectorAll("[data-sonner-toast]")) {
      if (shown.has(toast) || !toast.textContent) continue;
      shown.add(toast);
      log.push(`${(performance.now() / 1000).toFixed(1)} s: ${toast.textContent}`);
      if (log.length > limit) log.shift();
    }
  });
  const start = () => observer.observe(document.documentElement, { childList: true, subtree: true });
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start, { once: true });
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

/**
 * What a failed journey's pages showed, printed with the failure: a flake on a busy CI machine is then explained
 * by its own run (the address, whether the app had hydrated, the toasts on screen, a screenshot) instead of guessed.
 */
export async function describePagesIfFailed(test: TestContext, pages: Page[]): Promise<void> {
  const result = test.task.result;
  if (result?.state !== "fail" && (result?.errors?.length ?? 0) === 0) return;
  const testName = test.task.name;
  // Kept after the run: the run's own temporary folder (vitest.config.ts) is removed when it ends.
  const folder = process.env.CURATE_E2E_FAILURES_DIR ?? path.join(tmpdir(), "curate-e2e-failures");
  mkdirSync(folder, { recursive: true });
  for (const [index, page] of pages.entries()) {
    if (page.isClosed()) continue;
    const state = await page
      .evaluate(() => ({
        hydrated: document.documentElement.dataset.hydrated ?? "no",
        scrollY: window.scrollY,
        toasts: Array.from(document.querySelectorAll("[data-sonner-toast]")).map(
          (toast) => toast.textContent ?? "",
        ),
        // Every toast since the page loaded, with the second it appeared.
        toastsShown: (window as unknown as { __toastLog?: string[] }).__toastLog ?? [],
        alerts: Array.from(document.querySelectorAll('[role="alert"]')).map(
          (alert) => alert.textContent ?? "",
        ),
        // Where a sign-in stopped: signed-out, connected (a wallet, no session yet) or authorized.
        authStatus: document.querySelector("[data-auth-control]")?.getAttribute("data-auth-status") ?? "none",
        dialogs: Array.from(document.querySelectorAll('[role="dialog"]')).map(
          (dialog) => dialog.getAttribute("aria-label") ?? dialog.textContent?.slice(0, 60) ?? "",
        ),
      }))
      .catch((error: Error) => ({ unreadable: error.message }));
    const screenshot = path.join(
      folder,
      `${testName.replace(/[^a-z0-9]+/gi, "-").slice(0, 80)}-${index}.png`,
    );
    await page.screenshot({ path: screenshot, fullPage: false, timeout: 10_000 }).catch(() => undefined);
    const refused = refusedRequests.get(page) ?? [];
    console.error(
      `[e2e failure] page ${index}: ${page.url()}\n${JSON.stringify({ ...state, refused }, null, 2)}\nscreenshot: ${screenshot}`,
    );
  }
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
  const watched: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    await options.setup?.(browser.context);
  });
  afterEach(async (context) => {
    await describePagesIfFailed(context, [...opened, ...watched.splice(0)]);
    await options.afterEachTest?.(opened[0]);
    // A route handler still answering a late request (a refetch of /api/config, say) when its page closes throws
    // "Response has been disposed" into the run as an unhandled rejection, which fails the whole run.
    await Promise.all(
      opened.map((page) => page.unrouteAll({ behavior: "ignoreErrors" }).catch(() => undefined)),
    );
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
    /**
     * A page of another context (a second person's browser) described with this session's pages when the test
     * fails; the context that opened it closes it.
     */
    watch(page: Page): void {
      watched.push(page);
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
