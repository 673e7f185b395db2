import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { browserSession, hydrated, PHONE } from "./support/browser.ts";

const baseUrl = inject("baseUrl");
const session = browserSession(baseUrl);

const SLOW_MS = 4_000;
/** Well under the slow answer: what shows by then shows while the data is still on its way. */
const AT_ONCE_MS = 1_500;

/** Holds every API answer whose path matches for SLOW_MS, like a slow server would. */
async function slowApi(page: Page, pattern: RegExp) {
  await page.route(
    (url) => url.pathname.startsWith("/api/") && pattern.test(url.pathname),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      await route.continue().catch(() => undefined);
    },
  );
}

describe("a slow answer never blanks the page", () => {
  // A first visit to a public page gets its HTML with its data from the server, so the browser's own (slow) calls
  // are not in its way; the loading states belong to in-app navigations (below) and the server's fallback.
  it("shows a feed page complete at once on a first visit, even when the browser's API calls are slow", async () => {
    const page = await session.newPage();
    await slowApi(page, /^\/api\/(feeds\/|submissions\/feed\/)/);
    await page.goto(`${baseUrl}/feed/near/curation`);
    await page
      .getByRole("banner")
      .getByRole("link", { name: /curate/i })
      .first()
      .waitFor({ timeout: AT_ONCE_MS });
    await page.getByRole("heading", { level: 1 }).waitFor({ timeout: AT_ONCE_MS });
    await page.getByRole("list", { name: "Submissions" }).waitFor({ timeout: AT_ONCE_MS });
    expect(await page.getByText("Loading feed data...").count()).toBe(0);
  });

  it("renders Explore with its list at once on a first visit while the browser's list calls are slow", async () => {
    const page = await session.newPage();
    await slowApi(page, /^\/api\/submissions$/);
    await page.goto(`${baseUrl}/`);
    await page
      .getByRole("heading", { level: 1, name: "Discover autonomous brands powered by curators and AI" })
      .waitFor({ timeout: AT_ONCE_MS });
    await page.getByRole("list", { name: "Submissions" }).waitFor({ timeout: AT_ONCE_MS });
  });

  it("moves to the next page at once on an in-app navigation and shows that it is loading", async () => {
    const page = await session.newPage();
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    const feedLink = page.getByTestId("feed-list").getByRole("link").first();
    await feedLink.waitFor();
    await slowApi(page, /^\/api\/(feeds\/|submissions\/feed\/)/);
    const started = Date.now();
    await feedLink.click();
    await page.getByText("Loading feed data...").waitFor({ timeout: AT_ONCE_MS });
    expect(Date.now() - started).toBeLessThan(AT_ONCE_MS);
    expect(new URL(page.url()).pathname).toMatch(/^\/feed\/[a-z0-9_-]+\/curation$/);
  });
});

describe("an unknown feed", () => {
  for (const path of ["/feed/doesnotexist", "/edit/feed/doesnotexist", "/feed/all", "/edit/feed/all"]) {
    it(`${path} shows one not-found state with a way to Explore`, async () => {
      const { page, pageErrors } = await session.visit(path);
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
