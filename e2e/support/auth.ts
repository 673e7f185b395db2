import type { Page } from "playwright-core";
import { hydrated } from "./browser.ts";

/** Where the app keeps the connected wallet (features/auth/session.ts). */
const WALLET_STORAGE_KEY = "curate:wallet";

/**
 * Signs in through the header like a person would: Login → Development wallet → Authorize App, and waits for
 * the account menu. Needs a desktop-width page already showing the app, served in development or test mode.
 * Resolves with the account id (the development wallet's implicit account, 64 hex characters). The key stays
 * in the page's browser profile, so signing in again in the same context gives the same account.
 */
export async function signInWithDevWallet(page: Page): Promise<string> {
  const header = page.getByRole("banner");
  const login = header.getByRole("button", { name: "Login" });
  // A server-rendered page shows Login before its script runs; a click then would do nothing.
  await hydrated(page);
  await login.waitFor();
  await login.click();
  await page.getByRole("dialog", { name: "Connect a wallet" }).getByTestId("dev-wallet").click();
  const authorize = header.getByRole("button", { name: "Authorize App" });
  await authorize.click();
  await header.getByTestId("account-menu-trigger").waitFor();
  const stored = await page.evaluate((key) => localStorage.getItem(key), WALLET_STORAGE_KEY);
  const accountId = stored ? (JSON.parse(stored) as { accountId?: string }).accountId : undefined;
  if (!accountId) throw new Error("Signed in, but the app stored no wallet account");
  return accountId;
}
