import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import { signInAsModerator, toastShown } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/** Creates the feed and its pending queue through the API, from the signed-in page. */
async function seedQueue(page: Page, feedId: string, posts: number, undoWindowSeconds?: number) {
  await page.evaluate(
    async ({ feedId, posts, undoWindowSeconds }) => {
      const config = await (await fetch("/api/config")).json();
      const created = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: feedId,
          name: "Bulk Journey",
          description: "A busy queue",
          ...(undoWindowSeconds ? { moderation: { undoWindowSeconds } } : {}),
        }),
      });
      if (created.status !== 201) throw new Error(`feed: ${created.status}`);
      for (let index = 1; index <= posts; index++) {
        const response = await fetch("/api/test/tweets", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            text: `!submit @${config.data.botHandle} #${feedId} queue item ${index}`,
            username: "e2e_curator",
          }),
        });
        if (response.status !== 201) throw new Error(`post ${index}: ${response.status}`);
      }
    },
    { feedId, posts, undoWindowSeconds },
  );
}

describe("bulk decisions on the curation tab", () => {
  it("selects by checkbox, shift-click range and x, widens to all matching, and decides in one go", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `bulk${Date.now().toString(36)}`;
    await seedQueue(page, feedId, 6);

    await page.goto(`${baseUrl}/feed/${feedId}/curation?status=pending`);
    const cards = page.locator('[data-testid="submission-card"][data-status="pending"]');
    await expect.poll(() => cards.count()).toBe(6);
    const boxes = page.getByTestId("select-submission");
    const bar = page.getByTestId("bulk-bar");
    const count = page.getByTestId("bulk-count");

    // Checkbox, then shift-click: the range between them.
    await boxes.nth(0).click();
    await boxes.nth(2).click({ modifiers: ["Shift"] });
    await expect.poll(() => count.textContent()).toBe("3 selected");
    // x on the focused post adds it.
    await page.locator("[data-triage-id]").nth(4).focus();
    await page.keyboard.press("x");
    await expect.poll(() => count.textContent()).toBe("4 selected");
    await expect.poll(() => boxes.nth(4).isChecked()).toBe(true);
    expect(await boxes.nth(3).isChecked()).toBe(false);

    // Widening to every match, then clearing.
    await bar.getByRole("button", { name: "Select all 6 matching" }).click();
    await expect.poll(() => count.textContent()).toBe("6 selected");
    await bar.getByRole("button", { name: "Clear" }).click();
    await bar.waitFor({ state: "detached" });

    // Four approved in one call, with one shared note.
    await boxes.nth(0).click();
    await boxes.nth(2).click({ modifiers: ["Shift"] });
    await page.locator("[data-triage-id]").nth(4).focus();
    await page.keyboard.press("x");
    await bar.getByLabel("Note for every selected post (optional)").fill("cleared in one go");
    await bar.getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "4 posts approved.");
    await expect.poll(() => cards.count()).toBe(2);
    await bar.waitFor({ state: "detached" });

    // The two left, by "Select all 2 matching" under a Platform filter (it narrows the decision too), rejected.
    await page.goto(`${baseUrl}/feed/${feedId}/curation?status=pending&platform=twitter`);
    await expect.poll(() => cards.count()).toBe(2);
    await boxes.nth(0).click();
    await bar.getByRole("button", { name: "Select all 2 matching" }).click();
    await bar.getByRole("button", { name: "Reject" }).click();
    await toastShown(page, "2 posts rejected.");
    await expect.poll(() => cards.count()).toBe(0);

    const decided = await page.evaluate(async (id) => {
      const answer = await (await fetch(`/api/submissions/feed/${id}?limit=20`)).json();
      return answer.data.items.map((item: { status: string }) => item.status).sort();
    }, feedId);
    expect(decided).toEqual(["approved", "approved", "approved", "approved", "rejected", "rejected"]);
    expect(pageErrors).toEqual([]);
  });

  it("takes approvals back inside the undo window: the toast's Undo, the u key, and a bulk approval's Undo", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `undo${Date.now().toString(36)}`;
    await seedQueue(page, feedId, 4, 60);

    await page.goto(`${baseUrl}/feed/${feedId}/curation?status=pending`);
    const pending = page.locator('[data-testid="submission-card"][data-status="pending"]');
    await expect.poll(() => pending.count()).toBe(4);
    const undoButton = (name: string) =>
      page.locator("[data-sonner-toast]").getByRole("button", { name, exact: true }).first();

    // The toast's Undo.
    await pending.first().getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "Submission successfully approved.");
    await undoButton("Undo").click();
    await toastShown(page, "1 approval undone: pending again.");
    await expect.poll(() => pending.count()).toBe(4);

    // u on the keyboard, pressed at once: an approval still on its way is taken back as soon as it is confirmed.
    await pending.first().getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => pending.count()).toBe(3);
    await page.locator("[data-triage-id]").first().focus();
    await page.keyboard.press("u");
    await expect.poll(() => pending.count()).toBe(4);

    // A bulk approval, undone as one.
    const boxes = page.getByTestId("select-submission");
    await boxes.nth(0).click();
    await boxes.nth(1).click({ modifiers: ["Shift"] });
    await page.getByTestId("bulk-bar").getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "2 posts approved.");
    await undoButton("Undo 2 approvals").click();
    await toastShown(page, "2 approvals undone: pending again.");
    await expect.poll(() => pending.count()).toBe(4);

    // Nothing was published: every job of the feed was cancelled before it ran.
    const statuses = await page.evaluate(async (id) => {
      const list = await (await fetch(`/api/submissions/feed/${id}?limit=20`)).json();
      const jobs = await Promise.all(
        list.data.items.map(async (item: { tweetId: string }) =>
          (await fetch(`/api/processing/jobs/${item.tweetId}?feedId=${id}`)).json(),
        ),
      );
      return jobs.flatMap((answer) => answer.data.jobs.map((job: { status: string }) => job.status));
    }, feedId);
    expect(statuses.sort()).toEqual(["cancelled", "cancelled", "cancelled", "cancelled"]);
    expect(pageErrors).toEqual([]);
  });
});
