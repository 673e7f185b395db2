import { describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, PHONE } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

describe("the wizard refuses early what the server would refuse", () => {
  it("checks the hashtag, approver handles, duplicates and the thread id, and keeps the chat id", async () => {
    const { page } = await session.visit("/");
    await signInWithDevWallet(page);
    await page.goto(`${baseUrl}/create/feed`);
    await page.getByLabel("Feed name").fill("Wizard Checks");
    await page.getByLabel("Description").fill("Checking what step one refuses early.");
    await page.getByLabel("Hashtag").fill("h".repeat(65));
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("A hashtag may be at most 64 characters").waitFor();
    expect(new URL(page.url()).pathname).toBe("/create/feed");
    // The invalid field is marked as textareas are: a red border, not only the message.
    expect(await page.getByLabel("Hashtag").getAttribute("aria-invalid")).toBe("true");
    expect(
      await page.getByLabel("Hashtag").evaluate((input) => getComputedStyle(input).borderColor),
    ).not.toBe(await page.getByLabel("Feed name").evaluate((input) => getComputedStyle(input).borderColor));

    await page.getByLabel("Hashtag").fill(`wizard${Date.now().toString(36)}`);
    await page.getByRole("button", { name: "Next" }).click();
    await page.waitForURL("**/create/feed/settings");

    const handle = page.getByLabel("Handle");
    const add = page.getByRole("button", { name: "Add approver" });
    await handle.fill("not a handle!");
    await add.click();
    await page.getByText("An X handle has 1 to 15 letters, digits or _").waitFor();
    await handle.fill("alice");
    await add.click();
    await handle.fill("@Alice");
    await add.click();
    await page.getByText("@Alice is already an approver").waitFor();

    await page.getByText("Post approved content to Telegram").click();
    await page.getByLabel("Chat id or channel").fill("@wizardchat");
    await page.getByLabel("Message thread id").fill("abc");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("The message thread id is a number").waitFor();
    expect(new URL(page.url()).pathname).toBe("/create/feed/settings");

    await page.getByText("Post approved content to Telegram").click();
    expect(await page.getByLabel("Chat id or channel").count()).toBe(0);
    await page.getByText("Post approved content to Telegram").click();
    expect(await page.getByLabel("Chat id or channel").inputValue()).toBe("@wizardchat");
  });

  it("fits the review step on a phone whatever was typed", async () => {
    const { page } = await session.visit("/");
    // Signed in by the test above when run together; on its own, sign in first (the header needs a desktop width).
    await page
      .getByRole("banner")
      .getByRole("button", { name: "Login" })
      .or(page.getByTestId("account-menu-trigger"))
      .first()
      .waitFor();
    if (await page.getByRole("banner").getByRole("button", { name: "Login" }).isVisible())
      await signInWithDevWallet(page);
    await page.setViewportSize(PHONE);
    await page.goto(`${baseUrl}/create/feed`);
    await page.getByLabel("Feed name").waitFor();
    await page.getByLabel("Feed name").fill("Phone Review");
    await page
      .getByLabel("Description")
      .fill(`Unbroken ${"Averyveryverylongwordwithoutanyspaces".repeat(6)}`);
    await page.getByLabel("Hashtag").fill(`phonereview${Date.now().toString(36)}`);
    await page.getByRole("button", { name: "Next" }).click();
    await page.waitForURL("**/create/feed/settings");
    // The address changes before the step's own form is on the page: its Next is the one to click.
    await page.getByText("Step 2 of 3").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.waitForURL("**/create/feed/review");
    await page.getByRole("button", { name: "Create Feed" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
