import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, DESKTOP, PHONE, type Viewport } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

interface FirstLoad {
  page: Page;
  /** Every console error and warning, and every uncaught error, from the first byte on. */
  problems: string[];
}

/**
 * Opens a page the way a first visitor does, recording console problems and layout shifts from the start (the
 * observer is installed before any of the page's own code runs), and waits until the app has hydrated.
 */
async function firstLoad(
  path: string,
  viewport: Viewport,
  { slowDocument = false }: { slowDocument?: boolean } = {},
): Promise<FirstLoad> {
  const page = await session.newPage();
  await page.setViewportSize(viewport);
  // The web fonts are preloaded and `font-display: optional`: one that arrives within its ~100 ms block period is
  // used and re-wraps text first laid out in the fallback face, one that comes later is not. Which of the two
  // happens depends on how busy the machine is (a heading re-wrapped by 20 px at 287 ms, a rank's number shown
  // late), not on the page. The shifts measured here are the page's own (hydration, late data), so the browser
  // itself refuses the fonts (no round trip to this process, which could outlast the block period) and the
  // fallback face is laid out from the first paint.
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Network.enable");
  await devtools.send("Network.setBlockedURLs", { urls: ["*.woff2"] });
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.location().url.endsWith(".woff2")) return;
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.addInitScript(() => {
    const shifts = { total: 0, moved: [] as string[] };
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    const rect = (box: DOMRectReadOnly) =>
      `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`;
    const nameOf = (node: Node | null) => {
      if (!(node instanceof Element)) return node?.nodeName ?? "(gone)";
      const testId = node.getAttribute("data-testid");
      return `${node.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ""}.${node.className} "${(node.textContent ?? "").slice(0, 40)}"`;
    };
    type Shift = PerformanceEntry & {
      value: number;
      sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        shifts.total += entry.value;
        // What moved, so a failure names the element instead of leaving a number to guess from.
        for (const source of entry.sources) {
          shifts.moved.push(
            `${nameOf(source.node)} ${rect(source.previousRect)} → ${rect(source.currentRect)} at ${Math.round(entry.startTime)} ms`,
          );
        }
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  if (slowDocument) {
    // The document uncompressed, over a connection slow enough that it arrives in many pieces: a browser paints
    // what it has parsed between them unless the page holds its first paint until it is whole.
    await page.setExtraHTTPHeaders({ "accept-encoding": "identity" });
    await devtools.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: SLOW_DOCUMENT_BYTES_PER_SECOND,
      uploadThroughput: SLOW_DOCUMENT_BYTES_PER_SECOND,
    });
    await page.goto(`${baseUrl}${path}`, { waitUntil: "domcontentloaded" });
    await devtools.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  } else {
    await page.goto(`${baseUrl}${path}`);
  }
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  return { page, problems };
}

/** ~100 KB/s: a rendered page (~250 KB uncompressed) takes a few seconds, in pieces of a few KB. */
const SLOW_DOCUMENT_BYTES_PER_SECOND = 100 * 1024;

const layoutShift = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shifts: { total: number; moved: string[] } }).__shifts);

/**
 * A demo feed no journey writes to: a page measured for layout shifts must not change under it (the first feed is
 * where moderation journeys approve posts while this file runs beside them).
 */
const QUIET_FEED = "opensource";

/** Loads of one page before a data change under every one of them fails the check instead of measuring again. */
const MAX_LOADS = 5;

/** The newest change to the server's data that an answer has read (X-Change-Version, decision 0038). */
async function changeVersion(): Promise<string | null> {
  const response = await fetch(`${baseUrl}/api/health`);
  await response.arrayBuffer();
  return response.headers.get("x-change-version");
}

async function firstFeed(): Promise<{ id: string; name: string }> {
  const response = await fetch(`${baseUrl}/api/feeds/${QUIET_FEED}`);
  if (!response.ok) throw new Error(`the demo data has no feed "${QUIET_FEED}"`);
  return (await response.json()).data as { id: string; name: string };
}

describe("server-rendered first paint", () => {
  it("sends each public page's content in its HTML, before any script runs", async () => {
    const feed = await firstFeed();
    const pages: Array<[string, string]> = [
      ["/", "Discover autonomous brands powered by curators and AI"],
      ["/leaderboard", "Leaderboard"],
      [`/feed/${feed.id}/curation`, feed.name],
    ];
    for (const [path, text] of pages) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      const root = /<div id="root">([\s\S]*?)<\/div>\s*<script/.exec(html)?.[1] ?? "";
      expect(root, path).toContain(text);
      expect(html, path).toContain('id="curate-ssr-state"');
    }
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`hydrates /, /leaderboard and a feed page at ${viewport.width} px without a console error or a layout shift`, async () => {
      const feed = await firstFeed();
      for (const path of ["/", "/leaderboard", `/feed/${feed.id}/curation`]) {
        // "/" and the leaderboard show every feed's data, which earlier journeys' jobs on this server may still be
        // changing: a load during which the server's data changed (its change version moved) shows that change,
        // not a hydration fault, so it is measured again; a load over unchanged data must not move at all.
        for (let load = 1; ; load++) {
          const before = await changeVersion();
          const { page, problems } = await firstLoad(path, viewport);
          // The page the server rendered, not the app's fallback for data that came too late.
          expect(await page.locator("#curate-ssr-state").count(), path).toBe(1);
          // Settle: the visitor's own parts (session) and the relative times' clock run after hydration.
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(500);
          const shift = await layoutShift(page);
          const changedUnderIt = (await changeVersion()) !== before;
          if (!changedUnderIt || load === MAX_LOADS) {
            expect(problems, path).toEqual([]);
            expect(
              shift.total,
              `${path}${changedUnderIt ? ` (the data changed during each of ${load} loads)` : ""}; moved: ${shift.moved.join("; ")}`,
            ).toBe(0);
            await page.close();
            break;
          }
          await page.close();
        }
      }
    });
  }

  it("paints a page that arrives in pieces only once it is whole: nothing painted moves when the rest comes", async () => {
    // The quiet feed's page: no journey changes its data while it loads.
    const feed = await firstFeed();
    const { page, problems } = await firstLoad(`/feed/${feed.id}/curation`, DESKTOP, { slowDocument: true });
    await page.waitForLoadState("networkidle");
    const shift = await layoutShift(page);
    expect(problems).toEqual([]);
    expect(shift.total, `moved: ${shift.moved.join("; ")}`).toBe(0);
    await page.close();
  });

  it("stays a working single-page app after hydration: links navigate without reloading the document", async () => {
    const feed = await firstFeed();
    const sameDocument = (page: Page) =>
      page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
    const mark = (page: Page) =>
      page.evaluate(() => {
        (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
      });

    const home = await firstLoad("/", DESKTOP);
    await mark(home.page);
    await home.page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Leaderboard" })
      .click();
    await home.page.waitForURL(`${baseUrl}/leaderboard`);
    await expect.poll(() => home.page.getByTestId("leaderboard-row").count()).toBeGreaterThan(0);
    expect(await sameDocument(home.page)).toBe(true);
    expect(home.problems).toEqual([]);

    const feedPage = await firstLoad(`/feed/${feed.id}/curation`, DESKTOP);
    await mark(feedPage.page);
    await feedPage.page
      .getByRole("navigation", { name: "Feed sections" })
      .getByRole("link", { name: "Content" })
      .click();
    await feedPage.page.waitForURL(`${baseUrl}/feed/${feed.id}/content`);
    await feedPage.page.getByRole("link", { name: "Curate home" }).click();
    await feedPage.page.waitForURL(`${baseUrl}/`);
    await expect
      .poll(() => feedPage.page.getByRole("heading", { level: 1 }).textContent())
      .toContain("Discover");
    expect(await sameDocument(feedPage.page)).toBe(true);
    expect(feedPage.problems).toEqual([]);
  });

  it("renders the same anonymous page for a signed-in visitor, whose own parts fill in after hydration", async () => {
    const feed = await firstFeed();
    const { page, problems } = await firstLoad("/", DESKTOP);
    const accountId = await signInWithDevWallet(page);
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    const response = await page.goto(`${baseUrl}/feed/${feed.id}/curation`);
    expect(await response?.text()).not.toContain(accountId);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.getByRole("banner").getByTestId("account-menu-trigger").waitFor();
    // The session is confirmed, and the feed's moderation rights asked for, once the page is the app.
    await expect.poll(() => asked.includes("/api/users/me")).toBe(true);
    await expect.poll(() => asked.includes(`/api/feeds/${feed.id}/can-moderate`)).toBe(true);
    // (The development wallet's own requests to NEAR hosts fail offline; nothing from React or the page's code.)
    expect(problems.filter((text) => !text.includes("net::ERR_NAME_NOT_RESOLVED"))).toEqual([]);
  });
});
