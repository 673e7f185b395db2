import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import {
  approveOnCuration,
  botHandleOf,
  postOnTestPage,
  signInAsModerator,
  toastShown,
} from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/** A feed publishing each approval to this deployment's own RSS service, titled after the curator's note. */
async function createRssFeed(page: Page, feedId: string) {
  const status = await page.evaluate(async (id) => {
    const response = await fetch("/api/feeds", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id,
        name: "Ledger Journey",
        description: "A feed whose publications can be taken back",
        outputs: {
          stream: {
            enabled: true,
            distribute: [
              {
                plugin: "@curate/rss",
                config: {},
                transform: [
                  {
                    plugin: "@curate/object-transform",
                    config: { mappings: { title: "Picked: {{curatorNotes}}", description: "{{content}}" } },
                  },
                ],
              },
            ],
          },
        },
      }),
    });
    return response.status;
  }, feedId);
  expect(status).toBe(201);
}

/** The number of items in the feed's RSS file, once it reaches `count` (or after two minutes). */
async function rssItemsReach(page: Page, feedId: string, count: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const items = await page.evaluate(async (id) => {
      const response = await fetch(`/rss/${id}/rss.xml`, { cache: "no-store" });
      if (!response.ok) return -1;
      return (await response.text()).split("<item>").length - 1;
    }, feedId);
    if (items === count || Date.now() > deadline) return items;
    await page.waitForTimeout(300);
  }
}

describe("publish ledger and retraction", () => {
  it("a moderator opens a post's page from its card, sees where it went, retracts it and it leaves the content tab", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `ledg${Date.now().toString(36)}`;
    await createRssFeed(page, feedId);
    const note = `ledger-${Date.now().toString(36)}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${note}`);

    await approveOnCuration(page, baseUrl, feedId, note);
    const card = page.getByTestId("submission-card").filter({ hasText: note });
    expect(await rssItemsReach(page, feedId, 1)).toBe(1);

    // The content tab lists the published item.
    await page.goto(`${baseUrl}/feed/${feedId}/content`);
    await page
      .getByTestId("content-item")
      .filter({ hasText: `Picked: ${note}` })
      .waitFor();

    // Every card links to the post's own page: its feed and status, its history, and where it went.
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    await card.getByTestId("submission-details-link").click();
    await page.waitForURL(/\/submission\/[^/]+$/);
    const submissionPage = page.getByTestId("submission-page");
    await submissionPage.getByRole("heading", { level: 1, name: "Post by @" }).waitFor();
    const feedRow = page.getByTestId("submission-feed").filter({ hasText: `#${feedId}` });
    await feedRow.getByText("Approved").waitFor();
    const history = page.getByTestId("moderation-history");
    await history.getByText("Approved", { exact: true }).waitFor();
    const entry = page.getByTestId("publication").first();
    await entry.waitFor();
    expect(await entry.getAttribute("data-status")).toBe("published");
    expect(await entry.textContent()).toContain("RSS");
    expect(await page.getByRole("link", { name: /View feed/ }).getAttribute("href")).toBe(
      `${baseUrl}/rss/${feedId}/rss.xml`,
    );

    // Back on the curation tab, Retract asks first, with an optional note.
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    await card.getByRole("button", { name: "Retract" }).click();
    const dialog = page.getByRole("dialog", { name: "Retract this post?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await card.getAttribute("data-status")).toBe("approved");
    await card.getByRole("button", { name: "Retract" }).click();
    await dialog.getByLabel("Note (optional, kept in the moderation history)").fill("Posted by mistake");
    await dialog.getByRole("button", { name: "Retract post" }).click();
    await toastShown(page, "Removing 1 publication.");
    await page
      .locator('[data-testid="submission-card"][data-status="rejected"]')
      .filter({ hasText: note })
      .waitFor();
    await card.getByTestId("decision-note").getByText("Retracted by").waitFor();

    // The item is gone from the RSS file and from the content tab.
    expect(await rssItemsReach(page, feedId, 0)).toBe(0);
    await page.goto(`${baseUrl}/feed/${feedId}/content`);
    await page.getByText("No RSS feed items found.").waitFor();
    expect(await page.getByTestId("content-item").count()).toBe(0);

    // The post's page tells the story: retracted with the note, the RSS entry taken back.
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    await card.getByTestId("submission-details-link").click();
    await page.waitForURL(/\/submission\/[^/]+$/);
    await history.getByText("Retracted", { exact: true }).waitFor();
    await history.getByText("“Posted by mistake”").waitFor();
    await page.locator('[data-testid="publication"][data-status="retracted"]').waitFor();
    expect(await page.getByTestId("submission-feed").getByRole("button", { name: "Retract" }).count()).toBe(
      0,
    );

    // The processing tab keeps the retracted post with its retraction job and what it took back.
    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const row = page.getByTestId("processing-row").filter({ hasText: note });
    await row.getByText("Retracted").waitFor();
    await row.getByRole("button", { name: "View Processing Jobs" }).click();
    const job = page.locator('[data-testid="processing-job"][data-status="completed"]').first();
    await job.waitFor();
    expect(await job.getByTestId("job-kind").textContent()).toBe("Retraction");
    expect(pageErrors).toEqual([]);
  });
});
