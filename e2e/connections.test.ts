import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { launchBrowser, openPage } from "./support/browser.ts";
import { FAKE_X_ACCOUNT } from "./support/fake-crosspost.ts";
import { baseUrl } from "./support/stack.ts";

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: Error[];

/** A toast with this text, visible or stacked behind newer ones (sonner shows at most three). */
const toast = (text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ state: "attached" });

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page, pageErrors } = await openPage(browser.context, `${baseUrl}/`));
  await signInWithDevWallet(page);
});

afterAll(async () => {
  await browser?.close();
});

// One journey in order, against the local Crosspost the e2e server is configured with.
describe("connected accounts", () => {
  it("says nothing is connected yet, without an error, before the account ever connects", async () => {
    await page.goto(`${baseUrl}/profile/settings`);
    await page.waitForURL("**/profile/settings/connections");
    await page.getByText("No accounts connected yet.").waitFor();
    expect(await page.getByText("Authentication with Crosspost failed").count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it("explains a blocked popup", async () => {
    await page.evaluate(() => {
      window.open = () => null;
    });
    await page.getByRole("button", { name: "Connect X Account" }).click();
    await toast("Authenticating...");
    await toast("Please sign the message in your wallet");
    await toast("Connecting to X...");
    await toast("Please allow popups to connect your account");
  });

  it("says so when the login window is closed without connecting", async () => {
    await page.reload();
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Connect X Account" }).click(),
    ]);
    expect(new URL(popup.url()).pathname).toBe("/oauth/x");
    // The person closes the login window instead of logging in.
    await popup.getByRole("button", { name: "Authorize app" }).waitFor();
    await popup.close();
    await toast("Connection cancelled");
    await page.getByText("No accounts connected yet.").waitFor();
  });

  it("connects X in the popup, lists it and links the handle on Crosspost's word", async () => {
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Connect X Account" }).click(),
    ]);
    await popup.getByRole("button", { name: "Authorize app" }).click();
    await toast("X Account Connected!");
    await toast("Your account is now linked and ready to use.");
    await page
      .getByRole("list", { name: "Connected accounts" })
      .getByText(`@${FAKE_X_ACCOUNT.username}`)
      .waitFor();
    const linked = await page.evaluate(
      async () => (await (await fetch("/api/users/me/linked-accounts")).json()).data,
    );
    expect(linked).toEqual([
      {
        platformName: "twitter",
        platformUserId: FAKE_X_ACCOUNT.userId,
        username: FAKE_X_ACCOUNT.username,
        profileImage: null,
      },
    ]);
    expect(pageErrors).toEqual([]);
  });
});
