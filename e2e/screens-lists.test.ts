import type { Page, Request } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession } from "./support/browser.ts";
import { DEV_WALLET_KEY_STORAGE, MODERATOR_SECRET_KEY_HEX } from "./support/moderator.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const cards = (page: Page) => page.getByTestId("submission-card");
const REFRESH_MS = 10_000;

let botHandle: string;
beforeAll(async () => {
  botHandle = (await (await fetch(`${baseUrl}/api/config`)).json()).data.botHandle;
});

/** The page numbers of every submissions-list request the page makes from now on. */
function recordListPages(page: Page): number[] {
  const pages: number[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/submissions") pages.push(Number(url.searchParams.get("page")));
  });
  return pages;
}

async function scrollToPages(page: Page, count: number) {
  while ((await cards(page).count()) < count * 20) {
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(150);
  }
}

async function signInAsModerator(page: Page) {
  // Pages of this file share one browser profile: start each sign-in signed out.
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await page.reload();
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [DEV_WALLET_KEY_STORAGE, MODERATOR_SECRET_KEY_HEX],
  );
  await signInWithDevWallet(page);
}

async function postTestPost(
  page: Page,
  text: string,
  username: string,
  inReplyToStatusId?: string,
): Promise<{ id: string }> {
  const answer = await page.evaluate(
    async (body) => {
      const response = await fetch("/api/test/tweets", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    { text, username, inReplyToStatusId },
  );
  expect(answer.status).toBe(201);
  return answer.body.data;
}

describe("lists stay fresh without refetching every loaded page", () => {
  it("refreshes only the first page every 10 s, however far the reader scrolled", async () => {
    const { page } = await session.visit("/");
    await cards(page).first().waitFor();
    await scrollToPages(page, 4);
    const scrollBefore = await page.evaluate(() => window.scrollY);
    const pages = recordListPages(page);
    // The next tick of the 10 s poll, waited for as a request rather than as a length of time.
    await expect.poll(() => pages.length, { timeout: REFRESH_MS + 60_000 }).toBeGreaterThan(0);
    expect(pages.every((number) => number === 0)).toBe(true);
    // The reader's place is kept.
    expect(await cards(page).count()).toBeGreaterThanOrEqual(80);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrollBefore)).toBeLessThan(5);
  });

  it("refetches on focus and on reconnect even when the list is fresh", async () => {
    const { page } = await session.visit("/");
    await cards(page).first().waitFor();
    const pages = recordListPages(page);
    const asked = new Set<Request>();
    let answered = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/submissions") asked.add(request);
    });
    const settle = (request: Request) => {
      if (asked.has(request)) answered++;
    };
    page.on("requestfinished", settle);
    page.on("requestfailed", settle);
    // A focus while the list is already being fetched joins that fetch: focus again until one is asked for.
    await expect
      .poll(
        async () => {
          if (pages.length === 0) {
            await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
          }
          return pages.length;
        },
        { interval: 1_000 },
      )
      .toBeGreaterThan(0);
    // The focus refetch must be answered before going offline, or the reconnect joins it instead of asking again.
    await expect.poll(() => answered === asked.size).toBe(true);
    const afterFocus = pages.length;
    await page.context().setOffline(true);
    await page.context().setOffline(false);
    await expect.poll(() => pages.length).toBeGreaterThan(afterFocus);
    expect(pages.every((number) => number === 0)).toBe(true);
  });

  it("puts a new submission on top without moving the card the reader is looking at", async () => {
    const { page } = await session.visit("/");
    await signInAsModerator(page);
    await cards(page).first().waitFor();
    await scrollToPages(page, 2);
    // The reader has scrolled down to the 25th card, which sits 200 px below the top of the window.
    const entries = page.locator('ul[aria-label="Submissions"] > li');
    const key = await entries.nth(24).getAttribute("data-anchor-key");
    const watched = page.locator(`ul[aria-label="Submissions"] > li[data-anchor-key="${key}"]`);
    await watched.evaluate((entry) => window.scrollBy(0, entry.getBoundingClientRect().top - 200));
    const before = (await watched.boundingBox())?.y;
    const marker = `fresh${Date.now()}`;
    await postTestPost(page, `!submit @${botHandle} #near ${marker}`, "freshposter");
    // Returning to the tab asks for the first page: focus until the new post has been merged on top.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
          return entries.first().textContent();
        },
        { interval: 1_000 },
      )
      .toContain(marker);
    const after = (await watched.boundingBox())?.y;
    expect(Math.abs((after ?? Number.NaN) - (before ?? Number.NaN))).toBeLessThanOrEqual(1);
    expect(await page.getByTestId("new-items-pill").count()).toBe(0);
  });
});

describe("relative times", () => {
  it("keep ticking while the page is open", async () => {
    const { page } = await session.visit("/");
    await signInAsModerator(page);
    const marker = `tick${Date.now()}`;
    await postTestPost(page, `!submit @${botHandle} #near ${marker}`, "tickposter");
    await page.goto(`${baseUrl}/?q=${marker}`);
    const time = cards(page).first().locator("time").first();
    await time.waitFor();
    await expect.poll(() => time.textContent()).toMatch(/^\d+s ago$/);
    const first = await time.textContent();
    await expect.poll(() => time.textContent()).not.toBe(first);
  });
});

describe("a submission in several feeds", () => {
  it("does not let the headline pill hide a feed where it is still pending", async () => {
    const { page } = await session.visit("/");
    await signInAsModerator(page);
    const marker = `twofeeds${Date.now()}`;
    const parent = await postTestPost(page, `A post worth two feeds ${marker}`, "twofeedauthor");
    await postTestPost(page, `!submit @${botHandle} #near #design`, "twofeedcurator", parent.id);
    const tweetId = parent.id;
    const approved = await page.evaluate(
      async ([submissionId]) =>
        (
          await fetch("/api/moderate", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ submissionId, feedId: "near", action: "approve", source: "ui" }),
          })
        ).status,
      [tweetId],
    );
    expect(approved).toBeLessThan(300);
    await page.goto(`${baseUrl}/?q=${marker}`);
    const card = cards(page).first();
    await card.waitFor();
    const pills = await card.getByTestId("status-pill").allTextContents();
    const others = await card.getByTestId("other-feed-status").allTextContents();
    expect([...pills, ...others].join(" ").toLowerCase()).toContain("pending");
  });
});
