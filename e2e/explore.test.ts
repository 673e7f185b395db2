import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, hydrated, PHONE, type Viewport } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const PAGE_SIZE = 20;

const session = browserSession(baseUrl);
const visit = (pathAndQuery: string, viewport?: Viewport) => session.visit(pathAndQuery, viewport);

const cards = (page: Page) => page.getByTestId("submission-card");

async function cardStatuses(page: Page): Promise<string[]> {
  return page.$$eval("[data-testid=submission-card]", (elements) =>
    elements.map((element) => element.getAttribute("data-status") ?? ""),
  );
}

/** Records the query of every submissions-list request the page makes. */
function recordListQueries(page: Page): URLSearchParams[] {
  const queries: URLSearchParams[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/submissions") queries.push(url.searchParams);
  });
  return queries;
}

describe("Explore", () => {
  it("shows the hero, the feeds, the top curators and a first page of submissions", async () => {
    const { page, pageErrors } = await visit("/");

    await page
      .getByRole("heading", { level: 1, name: "Discover autonomous brands powered by curators and AI" })
      .waitFor();
    await cards(page).first().waitFor();
    expect(await cards(page).count()).toBe(PAGE_SIZE);

    const config = (await (await fetch(`${baseUrl}/api/config`)).json()).data;
    await expect
      .poll(() => page.getByTestId("submit-hint").textContent())
      .toBe(`!submit @${config.botHandle} #feedId`);

    const feedLinks = page.getByTestId("feed-list").getByRole("link");
    await feedLinks.first().waitFor();
    const hrefs = await feedLinks.evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.every((href) => /^\/feed\/[a-z0-9_-]+$/.test(href ?? ""))).toBe(true);
    expect(hrefs).not.toContain("/feed/all");

    const curators = page.getByTestId("top-curators").getByRole("listitem");
    await curators.first().waitFor();
    const curatorCount = await curators.count();
    expect(curatorCount).toBeGreaterThan(0);
    expect(curatorCount).toBeLessThanOrEqual(10);
    const points = await curators.evaluateAll((items) =>
      items.map((item) => Number(item.textContent?.match(/(\d+)\s+points?$/)?.[1])),
    );
    expect(points).toEqual([...points].sort((a, b) => b - a));

    expect(await page.getByRole("button", { name: /approve|reject/i }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("filters by status and keeps the filter in the address", async () => {
    const { page, pageErrors } = await visit("/");
    await cards(page).first().waitFor();

    for (const [status, label] of [
      ["approved", "Approved"],
      ["rejected", "Rejected"],
    ] as const) {
      await page.getByLabel("Status").selectOption(status);
      await page.waitForURL((url) => url.searchParams.get("status") === status);
      await expect
        .poll(async () => {
          const statuses = await cardStatuses(page);
          return statuses.length > 0 && statuses.every((value) => value === status);
        })
        .toBe(true);
      const pills = await page.getByTestId("status-pill").allTextContents();
      expect(new Set(pills)).toEqual(new Set([label]));
    }
    expect(pageErrors).toEqual([]);
  });

  it("searches 300 ms after typing stops and shows only matching cards", async () => {
    // The page's timers are the test's clock from its first script on: installed after the load, a timer the page
    // set before it (the search box's first debounce, still running on a busy machine) would stay a real one that
    // the clock's clearTimeout cannot cancel, and fire later with the empty text, taking the search back out of
    // the address.
    const page = await session.newPage();
    const pageErrors: Error[] = [];
    page.on("pageerror", (error) => pageErrors.push(error));
    await page.clock.install();
    await page.goto(`${baseUrl}/`);
    await hydrated(page);
    await cards(page).first().waitFor();
    const listQueries = recordListQueries(page);

    const content = (await page.getByTestId("submission-content").first().textContent()) ?? "";
    const term = (content.match(/[A-Za-z]{6,}/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? "";
    expect(term, `no searchable word in "${content}"`).not.toBe("");

    // The page's clock stands still while the box changes, then moves on in steps: what is sent depends on the
    // page's timers only. Each change is one `fill` (the locator is found afresh and the whole text set at once), so
    // a busy machine can neither drop keys nor let a half-typed word sit long enough to be sent.
    const box = page.getByLabel("Search submissions");
    const partial = term.slice(0, 3);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await box.fill(partial);
    await expect.poll(() => box.inputValue()).toBe(partial);
    await page.clock.runFor(200);
    await box.fill(term);
    await expect.poll(() => box.inputValue()).toBe(term);
    // 499 ms after the first change and 299 ms after the last one: the typing has not stopped for 300 ms yet.
    await page.clock.runFor(299);
    expect(new URL(page.url()).searchParams.get("q")).toBeNull();
    await page.clock.runFor(1);
    await page.clock.resume();
    await page.waitForURL((url) => url.searchParams.get("q") === term);
    await expect
      .poll(async () => {
        const texts = await cards(page).allTextContents();
        return texts.length > 0 && texts.every((text) => text.toLowerCase().includes(term.toLowerCase()));
      })
      .toBe(true);

    // Debounced: the partial word typed on the way was never sent.
    const searched = new Set(listQueries.map((query) => query.get("q")).filter(Boolean));
    expect([...searched]).toEqual([term]);
    expect(pageErrors).toEqual([]);
  });

  it("loads the next page when scrolled near the end", async () => {
    const { page, pageErrors } = await visit("/");
    await cards(page).first().waitFor();
    expect(await cards(page).count()).toBe(PAGE_SIZE);

    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => cards(page).count()).toBeGreaterThan(PAGE_SIZE);
    expect(pageErrors).toEqual([]);
  });

  it("falls back to the defaults for unusable search parameters", async () => {
    const listQueries: URLSearchParams[] = [];
    const page = await session.newPage();
    const pageErrors: Error[] = [];
    page.on("pageerror", (error) => pageErrors.push(error));
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/submissions") listQueries.push(url.searchParams);
    });

    await page.goto(`${baseUrl}/?status=bogus&sortOrder=sideways`);
    await cards(page).first().waitFor();

    expect(await page.getByLabel("Status").inputValue()).toBe("all");
    expect(await page.getByLabel("Sort By").inputValue()).toBe("newest");
    // The first page comes embedded in the server-rendered HTML; whatever the browser asks for uses the defaults.
    for (const query of listQueries) {
      expect(query.get("status")).toBe("all");
      expect(query.get("sortOrder")).toBe("newest");
    }
    expect(await page.getByText("Something went wrong").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe("Explore on a phone", () => {
  it("moves the feeds and the curators into drawers", async () => {
    const { page, pageErrors } = await visit("/", PHONE);
    await cards(page).first().waitFor();
    expect(await page.getByRole("complementary", { name: "Feeds" }).isVisible()).toBe(false);
    expect(await page.getByRole("complementary", { name: "Top Curators" }).isVisible()).toBe(false);

    const feedsButton = page.getByRole("button", { name: "Feeds", exact: true });
    await feedsButton.click();
    const feedsDrawer = page.getByRole("dialog", { name: "Feeds" });
    await feedsDrawer.getByRole("link").first().waitFor();
    expect(await feedsDrawer.getByRole("link").count()).toBeGreaterThan(0);
    await page.keyboard.press("Escape");
    await feedsDrawer.waitFor({ state: "detached" });
    expect(await feedsButton.evaluate((button) => button === document.activeElement)).toBe(true);

    await page.getByRole("button", { name: "Curators", exact: true }).click();
    const curatorsDrawer = page.getByRole("dialog", { name: "Top Curators" });
    await curatorsDrawer.getByRole("listitem").first().waitFor();
    const curatorCount = await curatorsDrawer.getByRole("listitem").count();
    expect(curatorCount).toBeGreaterThan(0);
    expect(curatorCount).toBeLessThanOrEqual(10);
    await curatorsDrawer.getByRole("button", { name: "Close" }).click();
    await curatorsDrawer.waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });

  it("has a menu whose Create entry is disabled", async () => {
    const { page } = await visit("/", PHONE);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await menu.waitFor();
    expect(await menu.getByRole("link", { name: "Leaderboard" }).getAttribute("href")).toBe("/leaderboard");
    expect(await menu.getByRole("link", { name: "Create" }).getAttribute("aria-disabled")).toBe("true");
  });
});

describe("Routing", () => {
  it("shows a not-found page for an unknown address, with a way home", async () => {
    const { page, pageErrors } = await visit("/this/page/does-not-exist");
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    expect(await page.getByText("404").isVisible()).toBe(true);

    await page.getByRole("link", { name: "Back to Explore" }).click();
    await page.waitForURL(`${baseUrl}/`);
    await cards(page).first().waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("sends a feed's address to its curation tab, under the feed header", async () => {
    const feeds = (await (await fetch(`${baseUrl}/api/feeds`)).json()).data as Array<{
      id: string;
      name: string;
    }>;
    const feed = feeds[0];
    const { page } = await visit(`/feed/${feed.id}`);
    await page.waitForURL(`${baseUrl}/feed/${feed.id}/curation`);
    await page.getByRole("heading", { level: 1, name: feed.name }).waitFor();
    expect(await page.getByText(`#${feed.id}`, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Curation" }).getAttribute("aria-current")).toBe("page");
  });
});
