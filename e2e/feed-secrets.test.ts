import type { Page } from "playwright-core";
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
const WRONG_TOKEN = "424242:AAH-a-token-telegram-refuses";

async function createTelegramFeed(page: Page, feedId: string) {
  const status = await page.evaluate(
    async ([id, chatId]) => {
      const response = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id,
          name: "Secrets Journey",
          description: "A feed that posts to Telegram with its own bot token",
          outputs: {
            stream: {
              enabled: true,
              distribute: [
                { plugin: "@curate/telegram", config: { botToken: "{{E2E_FEED_BOT_TOKEN}}", chatId } },
              ],
            },
          },
        }),
      });
      return response.status;
    },
    [feedId, E2E_TELEGRAM_CHAT],
  );
  expect(status).toBe(201);
}

describe("a feed's own secrets", () => {
  it("an owner adds a bot token, sees Telegram paused when it is refused, and replaces it to resume", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `sec${Date.now().toString(36)}`;
    await createTelegramFeed(page, feedId);

    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    const secrets = page.getByRole("heading", { name: "Secrets", exact: true });
    await secrets.waitFor();
    await page.getByText("No secrets yet.").waitFor();
    await page
      .getByText("Neither this feed's secrets nor this server have a value for {{E2E_FEED_BOT_TOKEN}}")
      .waitFor();

    // A name that is not a placeholder name is refused in the browser, before anything is sent.
    const addForm = page.getByRole("form", { name: "Add a secret" });
    await addForm.getByLabel("Name").fill("not a name!");
    await addForm.getByLabel("Value").fill(WRONG_TOKEN);
    await addForm.getByRole("button", { name: "Add Secret" }).click();
    await addForm.getByText("Use upper-case letters, digits and underscores").waitFor();

    await addForm.getByLabel("Name").fill("E2E_FEED_BOT_TOKEN");
    await addForm.getByRole("button", { name: "Add Secret" }).click();
    await toastShown(page, "Secret added");
    const list = page.getByRole("list", { name: "Secrets" });
    await list.getByText("{{E2E_FEED_BOT_TOKEN}}").waitFor();
    expect(await list.textContent()).toMatch(/set on [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    // Write-only: the value is in no field and nowhere on the page once saved; the warning is gone.
    expect(await addForm.getByLabel("Value").inputValue()).toBe("");
    expect(await page.content()).not.toContain(WRONG_TOKEN);
    await page.getByTestId("placeholder-warnings").waitFor({ state: "detached" });

    // Telegram refuses that token: the channel pauses and the owner is told on the processing tab.
    const marker = `secret-${Date.now()}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker}`);
    await approveOnCuration(page, baseUrl, feedId, marker);

    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const paused = page.getByTestId("paused-channels");
    await paused.waitFor({ timeout: 60_000 });
    expect(await paused.textContent()).toContain("Publishing to Telegram is paused");
    expect(await paused.textContent()).toContain("1 publication is waiting.");
    await paused.getByRole("button", { name: "Resume publishing" }).waitFor();

    // Replacing the value is the fix: it resumes the channel and the held post is published.
    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByTestId("paused-channels").waitFor();
    await list.getByRole("button", { name: "Replace" }).click();
    const replaceForm = page.getByRole("form", { name: "Replace E2E_FEED_BOT_TOKEN" });
    await replaceForm.getByLabel("New value for E2E_FEED_BOT_TOKEN").fill(E2E_TELEGRAM_TOKEN);
    await replaceForm.getByRole("button", { name: "Save Value" }).click();
    await toastShown(page, "Secret replaced");
    await page.getByTestId("paused-channels").waitFor({ state: "detached" });

    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const row = page.getByTestId("processing-row").filter({ hasText: marker });
    await row
      .locator('[data-testid="processing-status"][data-status="completed"]')
      .waitFor({ timeout: 60_000 });

    // Delete asks first, then the secret is gone.
    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByRole("button", { name: "Delete E2E_FEED_BOT_TOKEN" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await toastShown(page, "Secret deleted");
    await page.getByText("No secrets yet.").waitFor();
    expect(pageErrors).toEqual([]);
  });
});
