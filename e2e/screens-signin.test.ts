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

  it("keeps the chooser's options in place while the NEAR wallets' list loads and fails", async () => {
    const { page } = await session.visit("/");
    await signOutIfNeeded(page);
    await page.reload();
    // The wallets' list is held loading until the test lets its requests fail (offline, they always do).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/manifest.json", async (route) => {
      await held;
      await route.abort("namenotresolved");
    });
    await page.getByRole("banner").getByRole("button", { name: "Login" }).click();
    const chooser = page.getByRole("dialog", { name: "Connect a wallet" });
    await chooser.getByRole("list", { name: "Loading wallets" }).waitFor();
    const devWallet = chooser.getByTestId("dev-wallet");
    const before = await devWallet.boundingBox();
    release();
    await chooser.getByRole("button", { name: "Try again" }).waitFor();
    expect(await devWallet.boundingBox()).toEqual(before);
    await page.unrouteAll({ behavior: "ignoreErrors" });
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
