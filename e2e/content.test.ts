import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import { botHandleOf, postOnTestPage, signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/**
 * A feed publishing to this deployment's own RSS service (no serviceUrl: the default). Each item links to the
 * address the curator wrote as the note, and carries the feed id and that note as its categories, so two posts
 * differ in platform and in category.
 */
async function createFeed(page: Page, feedId: string, withRss: boolean) {
  const status = await page.evaluate(
    async ([id, rss]) => {
      const distribute = rss
        ? [
            {
              plugin: "@curate/rss",
              config: {},
              transform: [
                {
                  plugin: "@curate/object-transform",
                  config: {
                    mappings: {
                      title: "Picked: {{curatorNotes}}",
                      description: "{{content}}",
                      link: "https://{{curatorNotes}}",
                      categories: [id, "{{curatorNotes}}"],
                    },
                  },
                },
              ],
            },
          ]
        : [];
      const response = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id,
          name: "Content Journey",
          description: "A feed whose approvals are published as RSS",
          outputs: { stream: { enabled: true, distribute } },
        }),
      });
      return response.status;
    },
    [feedId, withRss] as const,
  );
  expect(status).toBe(201);
}

/** The number of items in the feed's RSS file once the worker has published `count` of them. */
async function waitForRssItems(page: Page, feedId: string, count: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const items = await page.evaluate(async (id) => {
      const response = await fetch(`/rss/${id}/rss.xml`, { cache: "no-store" });
      if (!response.ok) return 0;
      return (await response.text()).split("<item>").length - 1;
    }, feedId);
    if (items >= count || Date.now() > deadline) return items;
    await page.waitForTimeout(300);
  }
}

const itemTitles = (page: Page) => page.getByTestId("content-item").getByRole("link").allTextContents();

describe("content", () => {
  it("approved posts reach the content tab and the carousel; category, platform and chips filter the list", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `cont${Date.now().toString(36)}`;
    await createFeed(page, feedId, true);

    const stamp = Date.now().toString(36);
    const githubNote = `github.com/e2e/${stamp}`;
    const xNote = `x.com/e2e/status/${stamp}`;
    for (const note of [githubNote, xNote]) {
      await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${note}`);
    }
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    for (const note of [githubNote, xNote]) {
      const card = page.getByTestId("submission-card").filter({ hasText: note });
      await card.getByRole("button", { name: "Approve" }).click();
      await card.getByRole("button", { name: "Approve" }).waitFor({ state: "detached" });
    }
    expect(await waitForRssItems(page, feedId, 2)).toBe(2);

    // The feed page: its RSS destination links to the file, and the carousel shows both items.
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const rssLink = page.getByTestId("feed-destinations").getByRole("link", { name: "RSS" });
    expect(await rssLink.getAttribute("href")).toBe(`${baseUrl}/rss/${feedId}/rss.xml`);
    const carousel = page.getByTestId("recent-content");
    await carousel.getByText(`Picked: ${githubNote}`).waitFor();
    await carousel.getByText(`Picked: ${xNote}`).waitFor();

    // The content tab lists them, linking out in a new tab.
    await page.getByRole("link", { name: "Content", exact: true }).click();
    await page.waitForURL(`${baseUrl}/feed/${feedId}/content`);
    const items = page.getByTestId("content-item");
    await items.nth(1).waitFor();
    expect((await itemTitles(page)).sort()).toEqual([`Picked: ${githubNote}`, `Picked: ${xNote}`]);
    const githubItem = items.filter({ hasText: `Picked: ${githubNote}` });
    const link = githubItem.getByRole("link");
    expect(await link.getAttribute("href")).toBe(`https://${githubNote}`);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toContain("noopener");
    expect(await githubItem.getByText("github", { exact: true }).count()).toBe(1);
    // The carousel steps aside here: the list shows the same items in full.
    expect(await page.getByTestId("recent-content").count()).toBe(0);

    // A category badge filters by its category; its chip removes the filter again.
    await githubItem.getByRole("button", { name: githubNote }).click();
    const categoryChip = page.getByRole("button", { name: `Remove filter Category: ${githubNote}` });
    await categoryChip.waitFor();
    expect(await itemTitles(page)).toEqual([`Picked: ${githubNote}`]);
    expect(new URL(page.url()).searchParams.get("category")).toBe(githubNote);
    await categoryChip.click();
    await items.nth(1).waitFor();
    expect(await page.getByRole("list", { name: "Active filters" }).count()).toBe(0);

    // Platform and sort through the panel: nothing changes until Apply.
    await page.getByLabel("Platform").selectOption("twitter");
    await page.getByLabel("Sort By").selectOption("oldest");
    expect(await items.count()).toBe(2);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("button", { name: "Remove filter Platform: twitter" }).waitFor();
    expect(await itemTitles(page)).toEqual([`Picked: ${xNote}`]);
    expect(
      await page.getByRole("list", { name: "Active filters" }).getByRole("listitem").allTextContents(),
    ).toEqual(["Sort: Oldest First", "Platform: twitter"]);

    // Clear all drops every chip and shows everything again.
    await page.getByRole("button", { name: "Clear all" }).click();
    await items.nth(1).waitFor();
    expect(await page.getByRole("list", { name: "Active filters" }).count()).toBe(0);
    expect(await page.getByLabel("Platform").inputValue()).toBe("all");

    // A platform with no items says so; Reset brings them back.
    await page.getByLabel("Platform").selectOption("reddit");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("No RSS feed items found.").waitFor();
    await page.getByRole("button", { name: "Reset" }).click();
    await items.nth(1).waitFor();
    expect(new URL(page.url()).search).toBe("");
    expect(pageErrors).toEqual([]);
  });

  it("says so when a feed has no RSS output", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `norss${Date.now().toString(36)}`;
    await createFeed(page, feedId, false);
    await page.goto(`${baseUrl}/feed/${feedId}/content`);
    await page.getByText("This feed doesn't have an RSS feed configured.").waitFor();
    expect(await page.getByTestId("recent-content").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("builds a new feed's RSS addresses from this deployment's address, whichever address the browser used", async () => {
    // The server's PUBLIC_URL is baseUrl (127.0.0.1); this browser reaches the same server as localhost.
    const otherAddress = baseUrl.replace("127.0.0.1", "localhost");
    const { page, pageErrors } = await session.visit("/");
    await page.goto(`${otherAddress}/`);
    await signInAsModerator(page);
    const feedId = `wiz${Date.now().toString(36)}`;
    const prefill = new URLSearchParams({
      name: "Wizard Journey",
      description: "A feed created from a second address",
      id: feedId,
    });
    await page.goto(`${otherAddress}/create/feed?${prefill}`);
    await page.getByText("Step 1 of 3").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.waitForURL("**/create/feed/settings");
    // The address changes before the step's own form is on the page: its Next is the one to click.
    await page.getByText("Step 2 of 3").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Feed Review" }).waitFor();
    await page
      .getByTestId("review-destinations")
      .getByRole("link", { name: `${baseUrl}/rss/${feedId}/rss.xml` })
      .waitFor();
    await page.getByRole("button", { name: "Create Feed" }).click();
    await page.waitForURL(`**/feed/${feedId}/curation`);

    const rss = await page.evaluate(async (id) => {
      const feed = (await (await fetch(`/api/feeds/${id}`)).json()).data;
      return feed.config.outputs.stream.distribute[0].config;
    }, feedId);
    expect(rss).toMatchObject({
      serviceUrl: `${baseUrl}/rss`,
      feedConfig: { title: "Wizard Journey", siteUrl: `${baseUrl}/feed/${feedId}` },
    });
    expect(
      await page.getByTestId("feed-destinations").getByRole("link", { name: "RSS" }).getAttribute("href"),
    ).toBe(`${baseUrl}/rss/${feedId}/rss.xml`);
    expect(pageErrors).toEqual([]);
  });
});
