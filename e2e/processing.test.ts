import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, PHONE } from "./support/browser.ts";
import { BREAK_WORD } from "./support/fake-ai.ts";
import { botHandleOf, postOnTestPage, signInAsModerator, toastShown } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/**
 * Creates a feed from the signed-in page (the session cookie and same-origin check apply) whose stream summarises
 * with AI through the e2e fake, then publishes to RSS.
 */
async function createAiFeed(page: Page, feedId: string) {
  const status = await page.evaluate(async (id) => {
    const response = await fetch("/api/feeds", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id,
        name: "Processing Journey",
        description: "A feed whose AI step fails on demand",
        outputs: {
          stream: {
            enabled: true,
            transform: [
              {
                plugin: "@curate/ai-transform",
                config: {
                  prompt: "Give a title and a summary.",
                  apiKey: "{{E2E_AI_KEY}}",
                  outputFormat: "json",
                  schema: { title: { type: "string" }, summary: { type: "string" } },
                },
              },
            ],
            distribute: [{ plugin: "@curate/rss", config: {} }],
          },
        },
      }),
    });
    return response.status;
  }, feedId);
  expect(status).toBe(201);
}

describe("processing", () => {
  it("a moderator finds a failed AI step, reads its error, tweaks its input and reprocesses it to completion", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `proc${Date.now().toString(36)}`;
    await createAiFeed(page, feedId);

    const marker = `pipeline-${Date.now()}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker} ${BREAK_WORD}`);
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const card = page.getByTestId("submission-card").filter({ hasText: marker });
    await card.getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "Submission successfully approved.");

    // The approval's job fails at the AI step: the feed page counts it for moderators and links to it.
    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const row = page.getByTestId("processing-row").filter({ hasText: marker });
    await row.locator('[data-testid="processing-status"][data-status="failed"]').waitFor();
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const badge = page.getByTestId("failed-jobs-badge");
    await badge.waitFor();
    expect(await badge.textContent()).toBe("1 failed job in the last 24 h");
    await badge.click();
    await page.getByText("Showing submissions with failed jobs in the last 24 hours").waitFor();
    expect(new URL(page.url()).search).toBe("?failures=recent");

    await row.getByRole("button", { name: "View Processing Jobs" }).click();
    const jobs = page.getByTestId("processing-jobs");
    const failedJob = jobs.locator('[data-testid="processing-job"][data-status="failed"]');
    await failedJob.waitFor();
    expect(await failedJob.getByTestId("job-kind").textContent()).toBe("Approval");
    expect(await failedJob.getByRole("button", { name: "Retry Failed" }).isEnabled()).toBe(true);
    await failedJob.getByRole("button", { name: "View Steps" }).click();

    const steps = page.getByTestId("processing-steps");
    const aiStep = steps.locator('[data-testid="processing-step"][data-step-order="1"]');
    await aiStep.waitFor();
    expect(await aiStep.getAttribute("data-status")).toBe("failed");
    expect(await steps.getByTestId("step-error").first().textContent()).toContain(
      "does not match the output schema",
    );

    await aiStep.getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: "Step 1: AI transform" });
    await dialog.getByRole("tab", { name: "Error" }).click();
    expect(await dialog.getByTestId("step-error-message").textContent()).toContain(
      "does not match the output schema",
    );
    expect(await dialog.getByText("AI_REPLY_INVALID").count()).toBe(1);

    await dialog.getByRole("tab", { name: "Input" }).click();
    const input = dialog.getByLabel("Input (JSON, editable)");
    const original = await input.inputValue();
    expect(original).toContain(BREAK_WORD);
    // Broken JSON is caught before it is sent.
    await input.fill(`${original}}`);
    await dialog.getByText("Invalid JSON:").waitFor();
    const tweak = dialog.getByRole("button", { name: "Tweak and Reprocess" });
    expect(await tweak.isDisabled()).toBe(true);

    await input.fill(original.replaceAll(BREAK_WORD, ""));
    await tweak.click();
    await toastShown(page, "Tweak and reprocess triggered successfully.");
    await dialog.waitFor({ state: "detached" });

    // The tweak runs as a new job. Once it is the latest, the post no longer counts as failed, so it leaves the
    // failures filter: the whole list shows it, and polls until the worker has finished the tweak.
    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    await row.getByRole("button", { name: "View Processing Jobs" }).click();
    const tweaked = jobs.getByTestId("processing-job").filter({ hasText: "Tweak of" });
    await tweaked.locator('[data-testid="processing-status"][data-status="completed"]').waitFor();
    expect(await jobs.getByTestId("processing-job").count()).toBe(2);
    await tweaked.getByRole("button", { name: "View Steps" }).click();
    await steps.locator('[data-testid="processing-step"][data-status="success"]').nth(1).waitFor();
    expect(
      await steps
        .locator('[data-testid="processing-step"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status"))),
    ).toEqual(["success", "success"]);
    expect(pageErrors).toEqual([]);
  });

  it("keeps dry runs apart from the jobs that ran, and fits the jobs in their frame at 1440 and 375 px", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `procfit${Date.now().toString(36)}`;
    await createAiFeed(page, feedId);
    const marker = `fit-${Date.now()}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker} ${BREAK_WORD}`);
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const card = page.getByTestId("submission-card").filter({ hasText: marker });
    await card.getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "Submission successfully approved.");
    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const row = page.getByTestId("processing-row").filter({ hasText: marker });
    await row.locator('[data-testid="processing-status"][data-status="failed"]').waitFor();
    const submissionId = await row.getAttribute("data-submission-id");
    // Two previews of the approved post: dry runs, newer than its approval job.
    for (let preview = 0; preview < 2; preview++) {
      const status = await page.evaluate(
        async ([id, feed]) =>
          (
            await fetch("/api/processing/preview", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ submissionId: id, feedId: feed }),
            })
          ).status,
        [submissionId, feedId],
      );
      expect(status).toBe(200);
    }

    await row.getByRole("button", { name: "View Processing Jobs" }).click();
    const jobs = page.getByTestId("processing-jobs");
    await jobs.getByTestId("processing-job").first().waitFor();
    expect(
      await jobs
        .getByTestId("processing-job")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status"))),
    ).toEqual(["failed"]);
    const dryRuns = jobs.getByTestId("dry-run-jobs");
    await dryRuns.getByText("Dry runs (2)").click();
    const dryRunRows = dryRuns.getByTestId("dry-run-job");
    await dryRunRows.nth(1).waitFor();
    for (const dryRun of await dryRunRows.all()) {
      expect(await dryRun.getByRole("button").allTextContents()).toEqual(["View Steps"]);
    }

    const frame = page.getByTestId("processing-table").locator("xpath=..");
    const fits = () =>
      page.evaluate(() => {
        const table = document.querySelector('[data-testid="processing-table"]')?.parentElement;
        return {
          page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
          frame: table ? table.scrollWidth <= table.clientWidth : false,
        };
      });
    // Every action of the failed job is whole inside the table's frame.
    const retry = jobs.getByTestId("processing-job").getByRole("button", { name: "Retry Failed" });
    const inside = async () => {
      const [button, box] = [await retry.boundingBox(), await frame.boundingBox()];
      return Boolean(button && box && button.x >= box.x && button.x + button.width <= box.x + box.width);
    };
    expect(await fits()).toEqual({ page: true, frame: true });
    expect(await inside()).toBe(true);
    await page.screenshot({ path: "/tmp/processing-jobs-1440.png", fullPage: true });

    await page.setViewportSize(PHONE);
    await expect.poll(fits).toEqual({ page: true, frame: true });
    expect(await inside()).toBe(true);
    // The expanded row keeps its content in view above the jobs.
    const content = row.getByText(marker);
    const contentBox = await content.boundingBox();
    expect(contentBox && contentBox.x >= 0 && contentBox.x + contentBox.width <= PHONE.width).toBe(true);
    await page.screenshot({ path: "/tmp/processing-jobs-375.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("shows the processing history to moderators only", async () => {
    const { page, pageErrors } = await session.visit("/");
    await page.context().clearCookies();
    const feeds: Array<{ id: string }> = await page.evaluate(
      async () => (await (await fetch("/api/feeds")).json()).data,
    );
    const feedId = feeds.find((feed) => feed.id !== "all")?.id;
    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const restricted = page.getByRole("alert").filter({ hasText: "Access Restricted" });
    await restricted.waitFor();
    expect(await restricted.textContent()).toBe(
      "Access RestrictedYou need to be a moderator of this feed to view the processing history.",
    );
    expect(await page.getByTestId("processing-table").count()).toBe(0);
    expect(await page.getByTestId("failed-jobs-badge").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
