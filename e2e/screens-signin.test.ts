import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, PHONE } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

/** Login → Development wallet, stopping before Authorize App: connected, not authorized. */
async function connectOnly(page: Page) {
  const header = page.getByRole("banner");
  await header.getByRole("button", { name: "Login" }).click();
  await page.getByRole("dialog", { name: "Connect a wallet" }).getByTestId("dev-wallet").click();
  await header.getByRole("button", { name: "Authorize App" }).waitFor();
}

async function signOutIfNeeded(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
}

describe("sign-in has no dead end", () => {
  it("offers Disconnect beside Authorize App", async () => {
    const { page } = await session.visit("/");
    await signOutIfNeeded(page);
    await page.reload();
    await connectOnly(page);
    const header = page.getByRole("banner");
    await header.getByRole("button", { name: "Disconnect" }).click();
    await header.getByRole("button", { name: "Login" }).waitFor();
  });

  it("goes back to Login when the wallet session was lost before authorizing, also after a reload", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signOutIfNeeded(page);
    await page.reload();
    await connectOnly(page);
    // The wallet forgets its session on its own side (another tab, its own UI, cleared storage).
    await page.evaluate(() => localStorage.removeItem("curate:dev-wallet-connected"));
    await page.reload();
    const header = page.getByRole("banner");
    await header.getByRole("button", { name: "Authorize App" }).click();
    await page.getByText("Please try signing back in.").waitFor();
    await header.getByRole("button", { name: "Login" }).waitFor();
    await page.reload();
    await header.getByRole("button", { name: "Login" }).waitFor();
    expect(await header.getByRole("button", { name: "Authorize App" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("/test asks a connected but unauthorized user to authorize", async () => {
    const { page } = await session.visit("/test");
    await signOutIfNeeded(page);
    await page.reload();
    await connectOnly(page);
    const main = page.getByRole("main");
    await main.getByText("Authorize the app to create test tweets.").waitFor();
    await main.getByRole("button", { name: "Authorize App" }).click();
    await main.getByLabel(/tweet text/i).waitFor();
  });
});

describe("the account menu", () => {
  it("shows the account id once, in full, with a copy button", async () => {
    await session.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    const { page } = await session.visit("/");
    await signOutIfNeeded(page);
    await page.reload();
    const accountId = await signInWithDevWallet(page);
    await page.getByTestId("account-menu-trigger").click();
    const menu = page.getByRole("menu");
    await menu.waitFor();
    const text = (await menu.textContent()) ?? "";
    expect(text.split(accountId).length - 1).toBe(1);
    expect(text).not.toContain(`${accountId.slice(0, 8)}…`);
    await menu.getByRole("button", { name: "Copy account ID" }).click();
    await menu.getByRole("button", { name: "Copied account ID" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountId);
  });

  it("fits a phone's menu", async () => {
    const { page } = await session.visit("/", PHONE);
    await page.getByRole("button", { name: "Open menu" }).click();
    const panel = page.getByTestId("account-panel");
    await panel.waitFor();
    await panel.getByRole("button", { name: "Copy account ID" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
