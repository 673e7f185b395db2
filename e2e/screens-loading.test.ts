import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, hydrated, PHONE } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/**
 * Holds every API answer whose path matches until `release()`, like a server that has not answered yet: what the
 * page shows meanwhile is what it shows while its data is on its way, however fast or slow the machine is.
 */
async function holdApi(page: Page, pattern: RegExp) {
  const held: Route[] = [];
  let released = false;
  await page.route(
    (url) => url.pathname.startsWith("/api/") && pattern.test(url.pathname),
    async (route) => {
      if (released) await route.continue().catch(() => undefined);
      else held.push(route);
    },
  );
  return {
    /** How many matching calls the page has made and is still waiting for. */
    waiting: () => held.length,
    async release() {
      released = true;
      for (const route of held.splice(0)) await route.continue().catch(() => undefined);
    },
  };
}

describe("a slow answer never blanks the page", () => {
  // A first visit to a public page gets its HTML with its data from the server, so the browser's own (held) calls
  // are not in its way; the loading states belong to in-app navigations (below) and the server's fallback.
  it("shows a feed page complete on a first visit while the browser's API calls go unanswered", async () => {
    const page = await session.newPage();
    const api = await holdApi(page, /^\/api\/(feeds\/|submissions\/feed\/)/);
    await page.goto(`${baseUrl}/feed/near/curation`);
    await page
      .getByRole("banner")
      .getByRole("link", { name: /curate/i })
      .first()
      .waitFor();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("list", { name: "Submissions" }).waitFor();
    expect(await page.getByText("Loading feed data...").count()).toBe(0);
    await api.release();
  });

  it("renders Explore with its list on a first visit while the browser's list calls go unanswered", async () => {
    const page = await session.newPage();
    const api = await holdApi(page, /^\/api\/submissions$/);
    await page.goto(`${baseUrl}/`);
    await page
      .getByRole("heading", { level: 1, name: "Discover autonomous brands powered by curators and AI" })
      .waitFor();
    await page.getByRole("list", { name: "Submissions" }).waitFor();
    await api.release();
  });

  it("moves to the next page on an in-app navigation before its data answers, and shows that it is loading", async () => {
    const page = await session.newPage();
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const feedLink = page.getByTestId("feed-list").getByRole("link").first();
    await feedLink.waitFor();
    const api = await holdApi(page, /^\/api\/(feeds\/|submissions\/feed\/)/);
    await feedLink.click();
    await page.getByText("Loading feed data...").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/feed\/[a-z0-9_-]+\/curation$/);
    // Shown while the feed's own calls were still unanswered: the navigation did not wait for them.
    expect(api.waiting()).toBeGreaterThan(0);
    await api.release();
    await page.getByText("Loading feed data...").waitFor({ state: "detached" });
  });
});

describe("a server-rendered page becoming interactive", () => {
  it("keeps the place of a visitor who scrolled before it hydrated, and their next click lands", async () => {
    const page = await session.newPage();
    // The app's code is held, so the visitor reads and scrolls the server's HTML for as long as a slow phone would.
    const heldScripts: Route[] = [];
    let scriptsReleased = false;
    await page.route(
      (url) => url.pathname.startsWith("/assets/") && url.pathname.endsWith(".js"),
      async (route) => {
        if (scriptsReleased) await route.continue().catch(() => undefined);
        else heldScripts.push(route);
      },
    );
    await page.goto(`${baseUrl}/feed/near/curation`, { waitUntil: "domcontentloaded" });
    const details = page.getByTestId("submission-details-link");
    await details.first().waitFor();
    const lastDetails = details.last();
    await lastDetails.scrollIntoViewIfNeeded();
    const scrolledTo = await page.evaluate(() => window.scrollY);
    expect(scrolledTo).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();

    scriptsReleased = true;
    for (const route of heldScripts.splice(0)) await route.continue().catch(() => undefined);
    await hydrated(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolledTo);

    const target = await lastDetails.getAttribute("href");
    await lastDetails.click();
    await page.waitForURL((url) => url.pathname === target);
  });
});

describe("an unknown feed", () => {
  for (const path of ["/feed/doesnotexist", "/edit/feed/doesnotexist", "/feed/all", "/edit/feed/all"]) {
    it(`${path} is a 404 that shows one not-found state at once, with a way to Explore`, async () => {
      const page = await session.newPage();
      const pageErrors: Error[] = [];
      page.on("pageerror", (error) => pageErrors.push(error));
      const feedRequests: string[] = [];
      page.on("request", (request) => {
        if (/\/api\/feeds\/[^/]+$/.test(new URL(request.url()).pathname)) feedRequests.push(request.url());
      });
      // For browsers and crawlers alike: the address has nothing behind it.
      const response = await page.goto(`${baseUrl}${path}`);
      expect(response?.status()).toBe(404);
      await page.getByTestId("feed-not-found").waitFor();
      // Give any second request time to fail and show a second error, if one were made.
      await page.waitForTimeout(500);
      expect(await page.getByTestId("feed-not-found").count()).toBe(1);
      expect(await page.getByRole("heading", { name: "Feed not found." }).count()).toBe(1);
      expect(await page.getByRole("navigation", { name: "Feed sections" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Try again" }).count()).toBe(0);
      expect(await page.getByText("Error loading feed information.").count()).toBe(0);
      expect(await page.getByRole("button", { name: /Save Changes|Continue Feed Setup/ }).count()).toBe(0);
      expect(await page.title()).toBe("Feed not found · Curate");
      // A 404 is an answer, not an outage: the feed is asked for at most once, never retried.
      expect(feedRequests.length).toBeLessThanOrEqual(1);

      await page.getByRole("link", { name: "Explore feeds" }).click();
      await page.waitForURL(`${baseUrl}/`);
      expect(pageErrors).toEqual([]);
    });
  }

  it("fits a phone", async () => {
    const { page } = await session.visit("/feed/doesnotexist", PHONE);
    await page.getByTestId("feed-not-found").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});

describe("the document title follows the page", () => {
  const titles: Array<[string, string | RegExp]> = [
    ["/", "Explore · Curate"],
    ["/leaderboard", "Leaderboard · Curate"],
    ["/feed/near/curation", /^.+ · Curate$/],
    ["/edit/feed/near", /^Edit .+ · Curate$/],
    ["/no/such/page", "Page not found · Curate"],
    ["/plugin", "Plugins · Curate"],
  ];
  for (const [path, title] of titles) {
    it(path, async () => {
      const { page } = await session.visit(path);
      await expect.poll(() => page.title()).toMatch(title);
    });
  }

  it("changes on an in-app navigation", async () => {
    const { page } = await session.visit("/");
    await expect.poll(() => page.title()).toBe("Explore · Curate");
    await page.getByRole("banner").getByRole("link", { name: "Leaderboard" }).click();
    await expect.poll(() => page.title()).toBe("Leaderboard · Curate");
  });
});
