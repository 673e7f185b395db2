import { TEST_POST_BATCH_MAX } from "@curate/core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import { signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/** More pending posts than one bulk call may decide (BULK_DECISION_LIMIT is 1,000). */
const QUEUE = 1050;

/** Creates the feed and a queue of QUEUE pending posts through the API, in batches, from the signed-in page. */
async function seedLongQueue(page: Page, feedId: string) {
  await page.evaluate(
    async ({ feedId, posts, batchMax }) => {
      const config = await (await fetch("/api/config")).json();
      const created = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: feedId, name: "Long Queue", description: "More than one call can take" }),
      });
      if (created.status !== 201) throw new Error(`feed: ${created.status}`);
      for (let start = 1; start <= posts; start += batchMax) {
        const batch = Array.from({ length: Math.min(batchMax, posts - start + 1) }, (_, offset) => ({
          text: `!submit @${config.data.botHandle} #${feedId} long queue item ${start + offset}`,
          username: "e2e_curator",
        }));
        const response = await fetch("/api/test/tweets/batch", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ posts: batch }),
        });
        if (response.status !== 201) throw new Error(`posts from ${start}: ${response.status}`);
        const { data } = await response.json();
        if (data.intake.submitted !== batch.length)
          throw new Error(`posts from ${start}: ${JSON.stringify(data)}`);
      }
    },
    { feedId, posts: QUEUE, batchMax: TEST_POST_BATCH_MAX },
  );
}

describe("select all N matching beyond the cap", () => {
  it("approves a queue of more than 1,000 in the background, with progress found again after leaving", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `longq${Date.now().toString(36)}`;
    await seedLongQueue(page, feedId);

    await page.goto(`${baseUrl}/feed/${feedId}/curation?status=pending`);
    await expect.poll(() => page.getByTestId("submission-total").textContent()).toBe("1,050 submissions");
    await page.getByTestId("select-submission").first().click();
    const bar = page.getByTestId("bulk-bar");
    await bar.getByRole("button", { name: "Select all 1,050 matching" }).click();
    expect(await page.getByTestId("bulk-count").textContent()).toBe("1,050 selected");
    expect(await page.getByTestId("bulk-background-hint").textContent()).toBe(
      "Runs in the background, with its progress shown here.",
    );
    await bar.getByLabel("Note for every selected post (optional)").fill("cleared the long queue");
    await bar.getByRole("button", { name: "Approve" }).click();

    const progress = page.getByTestId("bulk-run-progress");
    // Limits that only stop a hang: a machine running two gates can take minutes to serve these pages.
    const patient = { timeout: 180_000 };
    await progress.waitFor(patient);
    // Left and came back. The run goes on in the background whatever the page does, so on a busy machine it can
    // end before the page is back: then the page shows its outcome. Otherwise the page finds the run again, and its
    // label and bar (read together, in one look at the page) agree on how far it got.
    await page.reload();
    const RUNNING = /^Approving (1,050 posts: starting…|([\d,]+) of 1,050…)$/;
    let found: { label: string; value: number } | null = null;
    await expect
      .poll(async () => {
        const state = await page.evaluate(() => ({
          label: document.querySelector('[data-testid="bulk-run-label"]')?.textContent ?? null,
          value: document
            .querySelector('[data-testid="bulk-run-progress"] [role="progressbar"]')
            ?.getAttribute("aria-valuenow"),
          pending: document.querySelectorAll('[data-testid="submission-card"][data-status="pending"]').length,
          listed: document.querySelector('[data-testid="submission-total"]')?.textContent ?? null,
          // The pending list once loaded with nothing left in it (no total is shown over an empty list).
          empty: document.querySelector("main")?.textContent?.includes("No submissions found") ?? false,
        }));
        if (state.label !== null && RUNNING.test(state.label)) {
          found = { label: state.label, value: Number(state.value) };
          return "running";
        }
        return state.label === null && state.empty && state.pending === 0
          ? "ended"
          : `loading ${JSON.stringify(state)}`;
      }, patient)
      .not.toMatch(/^loading/);
    if (found) {
      const { label, value } = found as { label: string; value: number };
      const done = label.match(RUNNING)?.[2];
      expect(value).toBe(done ? Number(done.replace(/,/g, "")) : 0);
      await page.screenshot({ path: "/tmp/bulkall-progress-1440.png" });
      await page.setViewportSize({ width: 375, height: 812 });
      // Of the page, not of the bar: the run may end while the viewport changes, and the bar go with it.
      await page.screenshot({ path: "/tmp/bulkall-progress-375.png" });
      await page.setViewportSize({ width: 1440, height: 900 });
      // The end: one summary toast, the bar gone, the list refreshed.
      await page
        .locator("[data-sonner-toast]")
        .filter({ hasText: "1050 posts approved." })
        .first()
        .waitFor({ state: "attached", ...patient });
      await progress.waitFor({ state: "detached", ...patient });
    }
    await expect
      .poll(() => page.locator('[data-testid="submission-card"][data-status="pending"]').count())
      .toBe(0);
    const approved = await page.evaluate(async (id) => {
      const answer = await (await fetch(`/api/submissions/feed/${id}?status=approved&limit=1`)).json();
      return answer.data.pagination.totalCount;
    }, feedId);
    expect(approved).toBe(QUEUE);
    expect(pageErrors).toEqual([]);
    // Only stops a hang: three patient waits in a row, and 1,050 decisions, each with its log entry and reputation
    // update, on a machine that may be running a second gate.
  }, 900_000);
});
