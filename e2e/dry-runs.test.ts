import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import { E2E_TELEGRAM_CHAT, E2E_TELEGRAM_TOKEN } from "./support/fake-telegram.ts";
import {
  approveOnCuration,
  botHandleOf,
  postOnTestPage,
  signInAsModerator,
  toastShown,
} from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

/** A feed whose stream asks the e2e AI fake for a title and summary, then posts to Telegram and RSS. */
async function createFeed(page: Page, feedId: string) {
  const status = await page.evaluate(
    async ([id, chatId, token]) => {
      const created = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id,
          name: "Dry Run Journey",
          description: "A feed whose channels are previewed before anything is sent",
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
              distribute: [
                { plugin: "@curate/telegram", config: { botToken: "{{E2E_FEED_BOT_TOKEN}}", chatId } },
                { plugin: "@curate/rss", config: {} },
              ],
            },
          },
        }),
      });
      const secret = await fetch(`/api/feeds/${id}/secrets/E2E_FEED_BOT_TOKEN`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value: token }),
      });
      return [created.status, secret.status];
    },
    [feedId, E2E_TELEGRAM_CHAT, E2E_TELEGRAM_TOKEN],
  );
  expect(status[0]).toBe(201);
  expect(status[1]).toBeLessThan(300);
}

/** Screenshots at 1440 and 375 px when E2E_SCREENSHOT_DIR is set (for looking at the screens, not asserted). */
async function shoot(page: Page, name: string, focus?: Locator) {
  if (!SHOTS) return;
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A new feed of this journey's config with one post submitted on /test and approved on its curation tab. */
async function feedWithApprovedPost(page: Page, prefix: string, words: string) {
  await signInAsModerator(page);
  const botHandle = await botHandleOf(page);
  const feedId = `${prefix}${Date.now().toString(36)}`;
  await createFeed(page, feedId);
  const marker = `${prefix}-${Date.now()}`;
  await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker} ${words}`);
  await approveOnCuration(page, baseUrl, feedId, marker);
  return { feedId, marker };
}

describe("dry runs", () => {
  it("a moderator previews a pending post's channels, then approves it from the preview", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `dry${Date.now().toString(36)}`;
    await createFeed(page, feedId);
    const marker = `preview-${Date.now()}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker} solar got cheaper`);

    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const card = page.getByTestId("submission-card").filter({ hasText: marker });
    await card.getByRole("button", { name: "Preview" }).click();
    const dialog = page.getByRole("dialog", { name: "Preview channels" });
    await dialog.waitFor();
    const telegram = dialog.locator('[data-testid="channel-preview"][data-plugin="@curate/telegram"]');
    await telegram.getByTestId("telegram-bubble").waitFor();
    expect(await telegram.getByTestId("telegram-bubble").textContent()).toContain("A fake headline");
    expect(await telegram.getByText("AI", { exact: true }).count()).toBe(1);
    expect(await telegram.getByText("sendMessage").count()).toBe(1);
    const rss = dialog.locator('[data-testid="channel-preview"][data-plugin="@curate/rss"]');
    expect(await rss.getByTestId("rss-item").textContent()).toContain("A fake headline");
    await shoot(page, "preview-dialog");

    // Nothing was published: the post is still pending and has no processing job of its own yet.
    await dialog.getByTestId("approve-from-preview").click();
    await toastShown(page, "Submission successfully approved.");
    await dialog.waitFor({ state: "detached" });
    await card.getByTestId("moderation-controls").waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
  });

  it("an owner tests an edited config on the edit page and sees the step that would fail, saving nothing", async () => {
    const { page, pageErrors } = await session.visit("/");
    const { feedId, marker } = await feedWithApprovedPost(page, "bench", "wind record");

    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByRole("tab", { name: "JSON View" }).click();
    const json = page.getByLabel("Feed configuration (JSON)");
    const saved = await json.inputValue();
    // The edit asks the AI step for a numeric title, which the AI's answer does not give.
    const edited = saved.replace(/"title": \{\s*"type": "string"\s*\}/, '"title": { "type": "number" }');
    expect(edited).not.toBe(saved);
    await json.fill(edited);
    await page.getByTestId("unsaved-marker").waitFor();

    const bench = page.getByTestId("config-test-bench");
    await bench.getByTestId("run-config-test").click();
    const run = bench.getByTestId("config-test-run").filter({ hasText: marker });
    await run.waitFor();
    expect(await run.getByText("2 of 2 channels would fail").count()).toBe(1);
    expect(await run.getByTestId("channel-error").first().textContent()).toBeTruthy();
    expect(await run.getByText("AI transform failed").count()).toBe(2);
    await shoot(page, "config-test-bench", run);

    // Back to the saved config: the same posts render on every channel. Nothing was saved by the test.
    await json.fill(saved);
    await bench.getByTestId("run-config-test").click();
    await run.getByText("All channels render").waitFor();
    expect(await run.getByTestId("telegram-bubble").textContent()).toContain("A fake headline");
    const stored = await page.evaluate(
      async (id) => (await (await fetch(`/api/feeds/${id}`)).json()).data.config.outputs.stream.transform[0],
      feedId,
    );
    expect(stored.config.schema.title.type).toBe("string");
    expect(pageErrors).toEqual([]);
  });

  it("a moderator dry-runs a tweak from the step dialog, reads the diff, then publishes it as an edit", async () => {
    const { page, pageErrors } = await session.visit("/");
    const { feedId, marker } = await feedWithApprovedPost(page, "replay", "tidal power");

    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const row = page.getByTestId("processing-row").filter({ hasText: marker });
    await row.locator('[data-testid="processing-status"][data-status="completed"]').waitFor();
    await row.getByRole("button", { name: "View Processing Jobs" }).click();
    const jobs = page.getByTestId("processing-jobs");
    await jobs.getByRole("button", { name: "View Steps" }).first().click();
    const aiStep = page.locator('[data-testid="processing-step"][data-step-order="1"]');
    await aiStep.getByRole("button", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: "Step 1: AI transform" });
    const input = dialog.getByLabel("Input (JSON, editable)");
    const original = await input.inputValue();
    // A longer post makes the AI fake write a different summary: the tweak's output differs from the job's.
    await input.fill(original.replace("tidal power", "tidal power, with the corrected figures"));

    await dialog.getByRole("tab", { name: "Dry run" }).click();
    await dialog.getByTestId("dry-run-tweak").click();
    const diff = dialog.getByTestId("output-diff");
    await diff.waitFor();
    expect(await diff.locator("ins").count()).toBeGreaterThan(0);
    expect(await diff.locator("del").count()).toBeGreaterThan(0);
    const telegram = dialog.locator('[data-testid="channel-preview"][data-plugin="@curate/telegram"]');
    expect(await telegram.getByText("editMessageText").count()).toBe(1);
    expect(await telegram.getByText(/Edits the publication of job/).count()).toBe(1);
    const rss = dialog.locator('[data-testid="channel-preview"][data-plugin="@curate/rss"]');
    expect(await rss.getByText("replaceItem").count()).toBe(1);
    await shoot(page, "replay-diff", diff);

    await dialog.getByTestId("publish-replay").click();
    await toastShown(page, "Tweak and reprocess triggered successfully.");
    await dialog.waitFor({ state: "detached" });
    const tweaked = jobs.getByTestId("processing-job").filter({ hasText: "Tweak" });
    await tweaked.locator('[data-testid="processing-status"][data-status="completed"]').waitFor();
    // Reprocess at job level can run dry first too: each step diffed, each channel shown, nothing sent.
    await tweaked.getByRole("button", { name: /as a dry run first/ }).click();
    const reprocess = page.getByRole("dialog", { name: "Reprocess: dry run" });
    await reprocess.getByTestId("channel-previews").waitFor();
    expect(await reprocess.getByTestId("output-diff").count()).toBeGreaterThan(0);
    expect(
      await reprocess
        .locator('[data-testid="channel-preview"][data-plugin="@curate/telegram"]')
        .getByText("editMessageText")
        .count(),
    ).toBe(1);
    await shoot(page, "reprocess-dry-run");
    await reprocess.getByRole("button", { name: "Close", exact: true }).first().click();
    await reprocess.waitFor({ state: "detached" });

    // The dry runs are listed apart from the approval and the published tweak, below them (the list is asked again
    // once the dialog's dry run is stored: wait for the second row rather than read the list as it was).
    await jobs.getByTestId("dry-run-job").nth(1).waitFor({ state: "attached" });
    const kinds = async (rows: string) =>
      (await jobs.getByTestId(rows).getByTestId("job-kind").allTextContents()).map(
        (kind) => kind.split(" of ")[0],
      );
    expect((await kinds("processing-job")).sort()).toEqual(["Approval", "Tweak"]);
    expect(await kinds("dry-run-job")).toEqual(["Dry run", "Dry run"]);
    expect(pageErrors).toEqual([]);
  });
});
