import type { ConsoleMessage, Page } from "playwright-core";
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
  // A sign-in that stops says what the page said meanwhile: twice in busy gates the chooser stayed open after the
  // development wallet was clicked, and the toast that would have said why was gone 60 s later.
  const said: string[] = [];
  const listen = (message: ConsoleMessage) => {
    if (message.type() === "error" || message.type() === "warning") said.push(message.text());
  };
  page.on("console", listen);
  try {
    await connectAndAuthorize(page);
  } catch (error) {
    const toasts = await page
      .locator("[data-sonner-toast]")
      .allTextContents()
      .catch(() => []);
    throw new Error(
      `${(error as Error).message}\n(toasts: ${JSON.stringify(toasts)}; console: ${JSON.stringify(said)})`,
    );
  } finally {
    page.off("console", listen);
  }
  const stored = await page.evaluate((key) => localStorage.getItem(key), WALLET_STORAGE_KEY);
  const accountId = stored ? (JSON.parse(stored) as { accountId?: string }).accountId : undefined;
  if (!accountId) throw new Error("Signed in, but the app stored no wallet account");
  return accountId;
}

async function connectAndAuthorize(page: Page) {
  const header = page.getByRole("banner");
  const login = header.getByRole("button", { name: "Login" });
  // A server-rendered page shows Login before its script runs; a click then would do nothing.
  await hydrated(page);
  await login.waitFor();
  await login.click();
  await page.getByRole("dialog", { name: "Connect a wallet" }).getByTestId("dev-wallet").click();
  const authorize = header.getByRole("button", { name: "Authorize App" });
  const failed = page.locator("[data-sonner-toast]").filter({ hasText: "Sign-in failed" });
  await authorize.or(failed).first().waitFor();
  if ((await failed.count()) > 0)
    throw new Error('The development wallet did not connect ("Sign-in failed")');
  await authorize.click();
  await header.getByTestId("account-menu-trigger").waitFor();
}
