import type { Page } from "playwright-core";
import { expect } from "vitest";
import { signInWithDevWallet } from "./auth.ts";
import { DEV_WALLET_KEY_STORAGE, MODERATOR_ACCOUNT_ID, MODERATOR_SECRET_KEY_HEX } from "./moderator.ts";

/**
 * Signs the fixed moderator (a super admin in the e2e server) in through the header. A file's tests share one
 * browser profile, so a session an earlier test opened is kept.
 */
export async function signInAsModerator(page: Page) {
  if (await page.evaluate(async () => (await fetch("/api/users/me")).ok)) return;
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [DEV_WALLET_KEY_STORAGE, MODERATOR_SECRET_KEY_HEX],
  );
  expect(await signInWithDevWallet(page)).toBe(MODERATOR_ACCOUNT_ID);
}

/** Waits for a toast with this text, visible or stacked behind newer ones (sonner shows at most three). */
export const toastShown = (page: Page, text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ state: "attached" });

/**
 * Closes the toast with this text with its close button, as a person does before clicking what it covers (a
 * pointer resting on a toast pauses its timer, so it would not go by itself).
 */
export async function dismissToast(page: Page, text: string) {
  const shown = page.locator("[data-sonner-toast]").filter({ hasText: text }).first();
  await shown.getByRole("button", { name: "Close toast" }).click();
  await shown.waitFor({ state: "detached" });
}

/** Posts a command on /test as the e2e curator and waits until intake has recorded it. */
export async function postOnTestPage(page: Page, baseUrl: string, text: string) {
  await page.goto(`${baseUrl}/test`);
  await page.getByRole("heading", { level: 1, name: "Create Test Tweet" }).waitFor();
  await page.getByLabel("Tweet text").fill(text);
  await page.getByLabel("Username").fill("e2e_curator");
  await page.getByRole("button", { name: "Create Tweet" }).click();
  await page.getByTestId("test-tweet-result").waitFor();
}

/** Approves, on the feed's curation tab, the pending post that says `text`, and waits for the app to confirm. */
export async function approveOnCuration(page: Page, baseUrl: string, feedId: string, text: string) {
  await page.goto(`${baseUrl}/feed/${feedId}/curation`);
  await page
    .getByTestId("submission-card")
    .filter({ hasText: text })
    .getByRole("button", { name: "Approve" })
    .click();
  await toastShown(page, "Submission successfully approved.");
}

/** Creates a feed as the page's signed-in user, through the API the wizard calls; answers the HTTP status. */
export function createFeedAs(page: Page, config: Record<string, unknown>): Promise<number> {
  return page.evaluate(async (body) => {
    const response = await fetch("/api/feeds", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return response.status;
  }, config);
}

/** The bot's handle this deployment tells the app (`!submit @<bot> #feed`). */
export async function botHandleOf(page: Page): Promise<string> {
  return page.evaluate(async () => (await (await fetch("/api/config")).json()).data.botHandle as string);
}
