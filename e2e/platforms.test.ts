import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeFeeds } from "../apps/server/test/fakes/rss-feed.ts";
import { browserSession, hydrated } from "./support/browser.ts";
import { signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

const BLOG = "/blog/feed.xml";

/**
 * The server renders these pages anonymously; a choice made while the signed-in parts are still taking over
 * (the header's account menu, a moderator's shortcut hint) can be lost, so the journey waits for them first.
 */
async function settled(page: Page, signedInPart: Locator) {
  await hydrated(page);
  await signedInPart.waitFor();
}
let blog: Awaited<ReturnType<typeof startFakeFeeds>>;

beforeAll(async () => {
  blog = await startFakeFeeds();
});
afterAll(async () => {
  await blog.close();
});

describe("posts from every network in one queue", () => {
  it("filters Explore and a feed's curation tab by platform, showing each post's network and original link", async () => {
    const stamp = Date.now().toString(36);
    const feedId = `nets${stamp}`;
    const title = `Incremental compilers ${stamp}`;
    const link = `https://blog.example.org/posts/compilers-${stamp}`;
    const feedUrl = blog.publish(BLOG, "rss", "Ada's Blog");
    blog.add(BLOG, {
      id: `post-${stamp}`,
      title,
      link,
      author: "Ada Lovelace",
      html: "<p>Finally fast.</p>",
    });

    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const status = await page.evaluate(
      async ({ feedId, feedUrl }) =>
        (
          await fetch("/api/feeds", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              id: feedId,
              name: "Networks Journey",
              description: "Posts from a blog",
              sources: [{ plugin: "@curate/rss-source", search: [{ searchId: "blog", url: feedUrl }] }],
            }),
          })
        ).status,
      { feedId, feedUrl },
    );
    expect(status).toBe(201);

    // The worker's next intake pass reads the blog and queues its post as a pending submission of the feed.
    await expect
      .poll(
        async () =>
          page.evaluate(
            async (feedId) =>
              (await (await fetch(`/api/submissions/feed/${feedId}`)).json()).data.pagination.totalCount,
            feedId,
          ),
        { interval: 500 },
      )
      .toBe(1);

    // Explore, narrowed to RSS by the Platform filter, which the address keeps.
    await page.goto(`${baseUrl}/?q=${encodeURIComponent(title)}`);
    await settled(page, page.getByTestId("account-menu-trigger"));
    await page.getByLabel("Platform").selectOption("rss");
    await page.waitForURL((url) => url.searchParams.get("platform") === "rss");
    const card = page
      .locator('[data-testid="submission-card"][data-platform="rss"]')
      .filter({ hasText: title });
    await card.waitFor();
    expect(await card.getByTestId("platform-label").textContent()).toBe("RSS");
    // A blog post is viewed on its site, which "RSS" (a file format) does not name.
    const original = card.getByRole("link", { name: "View on blog.example.org" });
    expect(await original.getAttribute("href")).toBe(link);
    expect(await original.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await original.getAttribute("target")).toBe("_blank");
    expect(await card.getByTestId("handle").textContent()).toBe("Ada Lovelace");

    // The same search on another network finds nothing.
    await page.getByLabel("Platform").selectOption("bluesky");
    await page.getByText("No submissions found").waitFor();
    expect(await page.getByTestId("submission-card").count()).toBe(0);

    // The feed's curation tab filters the same way, from an address shared with the filter in it.
    await page.goto(`${baseUrl}/feed/${feedId}/curation?platform=mastodon`);
    await settled(page, page.getByTestId("shortcut-hint"));
    await page.getByText("No submissions found").waitFor();
    expect(await page.getByLabel("Platform").inputValue()).toBe("mastodon");
    await page.getByLabel("Platform").selectOption("all");
    await page.waitForURL((url) => !url.searchParams.has("platform"));
    const queued = page.locator('[data-testid="submission-card"][data-platform="rss"]');
    await queued.filter({ hasText: title }).waitFor();
    expect(await queued.getByRole("link", { name: "View on blog.example.org" }).getAttribute("href")).toBe(
      link,
    );
    expect(pageErrors).toEqual([]);
  });
});
