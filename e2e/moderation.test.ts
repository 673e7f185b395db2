import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { launchBrowser, openPage } from "./support/browser.ts";
import {
  DEV_WALLET_KEY_STORAGE,
  MODERATOR_ACCOUNT_ID,
  MODERATOR_SECRET_KEY_HEX,
} from "./support/moderator.ts";
import { baseUrl } from "./support/stack.ts";

type Browser = Awaited<ReturnType<typeof launchBrowser>>;
let moderatorBrowser: Browser;
let memberBrowser: Browser;
const opened: Page[] = [];

let botHandle: string;
let feedId: string;

beforeAll(async () => {
  [moderatorBrowser, memberBrowser] = await Promise.all([launchBrowser(), launchBrowser()]);
  botHandle = (await (await fetch(`${baseUrl}/api/config`)).json()).data.botHandle;
  const feeds: Array<{ id: string }> = (await (await fetch(`${baseUrl}/api/feeds`)).json()).data;
  const feed = feeds.find((candidate) => candidate.id !== "all");
  if (!feed) throw new Error("The seeded server has no feed");
  feedId = feed.id;
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((page) => page.close()));
});

afterAll(async () => {
  await Promise.all([moderatorBrowser?.close(), memberBrowser?.close()]);
});

async function visit(browser: Browser, pathAndQuery: string) {
  const result = await openPage(browser.context, `${baseUrl}${pathAndQuery}`);
  opened.push(result.page);
  return result;
}

/** Signs the moderator in with the fixed key that the server treats as a super admin. */
async function signInAsModerator(page: Page) {
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key, value),
    [DEV_WALLET_KEY_STORAGE, MODERATOR_SECRET_KEY_HEX],
  );
  expect(await signInWithDevWallet(page)).toBe(MODERATOR_ACCOUNT_ID);
}

/** Posts `!submit` for the feed on /test as a curator and returns the new post's id. */
async function createTestPost(page: Page, text: string): Promise<string> {
  await page.goto(`${baseUrl}/test`);
  await page.getByRole("heading", { level: 1, name: "Create Test Tweet" }).waitFor();
  await page.getByLabel("Tweet text").fill(text);
  await page.getByLabel("Username").fill("e2e_curator");
  await page.getByRole("button", { name: "Create Tweet" }).click();
  const result = page.getByTestId("test-tweet-result");
  await result.waitFor();
  expect(await result.getByRole("definition").allTextContents()).toEqual(["1", "1", "0"]);
  return (await page.getByTestId("test-tweet-id").textContent()) ?? "";
}

const card = (page: Page, marker: string) => page.getByTestId("submission-card").filter({ hasText: marker });

describe("moderation", () => {
  it("a moderator creates a test post, finds it pending, approves it from the keyboard with a note, and Explore shows it approved", async () => {
    const { page, pageErrors } = await visit(moderatorBrowser, "/");
    await signInAsModerator(page);

    const marker = `approve-me-${Date.now()}`;
    const postId = await createTestPost(page, `!submit @${botHandle} #${feedId} ${marker}`);
    expect(postId).toMatch(/^\d+$/);

    await page.getByRole("link", { name: `View #${feedId} curation` }).click();
    await page.getByRole("heading", { name: "Recent Curation" }).waitFor();
    const submitted = card(page, marker);
    await submitted.waitFor();
    expect(await submitted.getAttribute("data-status")).toBe("pending");
    // Shown once the page knows the visitor may moderate (their permissions arrive after the list).
    await page.getByTestId("shortcut-hint").waitFor();

    // The new post is the newest, so it is the first item: j focuses it, n opens its note, Esc returns, a approves.
    await page.keyboard.press("j");
    const item = page.locator(`[data-triage-id="${postId}"]`);
    expect(await item.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press("n");
    const note = item.getByLabel("Moderation note (optional, saved with your decision)");
    await expect.poll(() => note.evaluate((element) => element === document.activeElement)).toBe(true);
    // Letters typed into the note are text, not shortcuts.
    await page.keyboard.type("a rare find");
    expect(await submitted.getAttribute("data-status")).toBe("pending");
    await page.keyboard.press("Escape");
    await page.keyboard.press("a");

    await expect.poll(() => submitted.getAttribute("data-status")).toBe("approved");
    await page.getByText("Submission successfully approved.").waitFor();
    expect(await submitted.getByTestId("moderation-controls").count()).toBe(0);
    await expect.poll(() => submitted.getByTestId("decision-note").textContent()).toContain("a rare find");

    const stored = (await (await fetch(`${baseUrl}/api/submissions/feed/${feedId}?q=${marker}`)).json()).data
      .items[0];
    expect(stored.status).toBe("approved");
    expect(stored.moderationHistory.at(-1)).toMatchObject({
      moderatorAccountId: MODERATOR_ACCOUNT_ID,
      action: "approve",
      note: "a rare find",
    });

    await page.goto(`${baseUrl}/?q=${marker}`);
    const onExplore = card(page, marker);
    await onExplore.waitFor();
    expect(await onExplore.getAttribute("data-status")).toBe("approved");
    expect(await onExplore.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("shows a rejection at once and rolls it back with the error toast when the server fails", async () => {
    const { page, pageErrors } = await visit(moderatorBrowser, "/");
    const marker = `reject-fails-${Date.now()}`;
    await createTestPost(page, `!submit @${botHandle} #${feedId} ${marker}`);
    await page.goto(`${baseUrl}/feed/${feedId}/curation?q=${marker}`);
    const submitted = card(page, marker);
    await submitted.getByRole("button", { name: "Reject" }).waitFor();

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/moderate", async (route) => {
      await held;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({
          success: false,
          statusCode: 500,
          error: { message: "boom", code: "INTERNAL_ERROR" },
        }),
      });
    });

    await submitted.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => submitted.getAttribute("data-status")).toBe("rejected");
    release();
    await page.getByText("Error rejecting submission.").waitFor();
    await expect.poll(() => submitted.getAttribute("data-status")).toBe("pending");
    expect(await submitted.getByRole("button", { name: "Approve" }).isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("shows no moderation buttons to a signed-in non-moderator or a visitor", async () => {
    const { page, pageErrors } = await visit(memberBrowser, "/");
    const accountId = await signInWithDevWallet(page);
    expect(accountId).not.toBe(MODERATOR_ACCOUNT_ID);

    const marker = `not-mine-${Date.now()}`;
    await createTestPost(page, `!submit @${botHandle} #${feedId} ${marker}`);
    await page.goto(`${baseUrl}/feed/${feedId}/curation?status=pending`);
    const pending = card(page, marker);
    await pending.waitFor();
    expect(await pending.getAttribute("data-status")).toBe("pending");

    const canModerate = await page.evaluate(
      async (id) => (await (await fetch(`/api/feeds/${id}/can-moderate`)).json()).data,
      feedId,
    );
    expect(canModerate).toEqual({ canModerate: false, reason: "not_moderator" });
    expect(await page.getByTestId("moderation-controls").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(await page.getByTestId("shortcut-hint").count()).toBe(0);

    // Decision keys do nothing for them either.
    await page.keyboard.press("j");
    await page.keyboard.press("a");
    expect(await pending.getAttribute("data-status")).toBe("pending");

    const visitor = await visit(moderatorBrowser, "/");
    await visitor.page.context().clearCookies();
    await visitor.page.goto(`${baseUrl}/feed/${feedId}/curation?status=pending`);
    await card(visitor.page, marker).waitFor();
    expect(await visitor.page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
