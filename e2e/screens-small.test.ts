import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, PHONE } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const stamp = Date.now().toString(36);
const freshId = `fresh${stamp}`;
const pausedId = `paused${stamp}`;
const LONG_WORD = "Supercalifragilisticexpialidocious".repeat(8);
let botHandle: string;

async function createFeed(page: Page, body: Record<string, unknown>) {
  const status = await page.evaluate(
    async (config) =>
      (
        await fetch("/api/feeds", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(config),
        })
      ).status,
    body,
  );
  expect(status).toBe(201);
}

beforeAll(async () => {
  botHandle = (await (await fetch(`${baseUrl}/api/config`)).json()).data.botHandle;
  const page = await session.newPage();
  await page.goto(`${baseUrl}/`);
  await signInWithDevWallet(page);
  await createFeed(page, { id: freshId, name: "Fresh Feed", description: `A new feed ${LONG_WORD}` });
  await createFeed(page, {
    id: pausedId,
    name: "Paused Feed",
    description: "Not taking anything",
    enabled: false,
  });
  await page.close();
});

describe("a new feed's first screen", () => {
  it("says how curators submit, not to try another filter", async () => {
    const { page } = await session.visit(`/feed/${freshId}/curation`);
    const hint = page.getByTestId("first-submission-hint");
    await hint.waitFor();
    await expect.poll(() => hint.textContent()).toContain(`!submit @${botHandle} #${freshId}`);
    expect(await page.getByText("Try another search or filter.").count()).toBe(0);
  });
});

describe("a disabled feed", () => {
  it("says on its page that it accepts no new submissions", async () => {
    const { page } = await session.visit(`/feed/${pausedId}/curation`);
    await page.getByTestId("feed-disabled").waitFor();
    expect(await page.getByTestId("feed-disabled").textContent()).toBe(
      "This feed is disabled: it accepts no new submissions.",
    );
  });
});

describe("phones", () => {
  it("show that the feed tabs scroll, and only while there is more", async () => {
    const { page } = await session.visit("/feed/near/curation", PHONE);
    await page.getByTestId("tabs-scroll-hint").waitFor();
    await page.getByRole("navigation", { name: "Feed sections" }).evaluate((nav) => {
      nav.scrollLeft = nav.scrollWidth;
    });
    await page.getByTestId("tabs-scroll-hint").waitFor({ state: "detached" });
    const desktop = await session.visit("/feed/near/curation");
    await desktop.page.getByRole("navigation", { name: "Feed sections" }).waitFor();
    expect(await desktop.page.getByTestId("tabs-scroll-hint").count()).toBe(0);
  });

  it("never widen My Feeds with a long unbroken word, and clamp its description to two lines", async () => {
    const { page } = await session.visit("/profile/my-feeds", PHONE);
    const card = page.locator(`[data-testid=my-feed-card][data-feed-id=${freshId}]`);
    await card.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const clamp = await card.getByTestId("my-feed-description").evaluate((element) => {
      const box = element.getBoundingClientRect();
      const parent = (element.parentElement as HTMLElement).getBoundingClientRect();
      const lineHeight = Number.parseFloat(getComputedStyle(element).lineHeight);
      return { height: box.height, lineHeight, inside: box.bottom <= parent.bottom };
    });
    expect(clamp.height).toBeLessThanOrEqual(clamp.lineHeight * 2 + 1);
    expect(clamp.inside).toBe(true);

    await page.goto(`${baseUrl}/feed/${freshId}/curation`);
    await page.getByTestId("first-submission-hint").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
