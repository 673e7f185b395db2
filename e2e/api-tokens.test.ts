import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { launchBrowser, openPage } from "./support/browser.ts";
import { toastShown } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: Error[];
let accountId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page, pageErrors } = await openPage(browser.context, `${baseUrl}/`));
  accountId = await signInWithDevWallet(page);
});

afterAll(async () => {
  await browser?.close();
});

/** What a script holding the token gets back for "who am I". */
const asScript = (token: string) =>
  fetch(`${baseUrl}/api/users/me`, { headers: { Authorization: `Bearer ${token}` } });

// One journey in order: a token is made in Settings, works for a script, and stops working once revoked.
describe("personal API tokens", () => {
  let secret = "";

  it("makes a token in Settings and shows it once", async () => {
    await page.goto(`${baseUrl}/profile/settings`);
    await page.getByRole("link", { name: "API Tokens" }).click();
    await page.waitForURL("**/profile/settings/api-tokens");
    await page.getByText("No tokens yet.").waitFor();
    await page.getByLabel("Name").fill("Queue dashboard");
    await page.getByRole("checkbox", { name: /^Moderate/ }).check();
    await page.getByRole("button", { name: "Create Token" }).click();
    secret = (await page.getByTestId("new-api-token").textContent()) ?? "";
    expect(secret).toMatch(/^curate_pat_[A-Za-z0-9_-]{43}$/);
    await page
      .getByRole("list", { name: "API tokens" })
      .getByRole("listitem", { name: "Queue dashboard" })
      .waitFor();
  });

  it("lets a script act as the account with it", async () => {
    const answer = await asScript(secret);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: { nearAccountId: string } }).data.nearAccountId).toBe(accountId);
  });

  it("revokes it, after which the script is refused", async () => {
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.getByTestId("new-api-token").count()).toBe(0);
    await page.getByRole("button", { name: "Revoke Queue dashboard" }).click();
    await page.getByRole("dialog", { name: "Revoke Token" }).getByRole("button", { name: "Revoke" }).click();
    await toastShown(page, "Token revoked");
    await page
      .getByRole("listitem", { name: "Queue dashboard" })
      .getByText("revoked", { exact: true })
      .waitFor();
    expect((await asScript(secret)).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
