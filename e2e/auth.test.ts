import type { Feed, FeedSummary } from "@curate/core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, hydrated, PHONE, type Viewport } from "./support/browser.ts";
import { blockExternalRequests, type FakeSocialProfile, fakeNearSocial } from "./support/near-rpc.ts";
import { baseUrl } from "./support/stack.ts";

const socialProfiles: Record<string, FakeSocialProfile> = {};

// A 1×1 PNG stands in for profile pictures on IPFS.
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const session = browserSession(baseUrl, {
  async setup(context) {
    await fakeNearSocial(context, socialProfiles);
    await blockExternalRequests(context, baseUrl);
    await context.route("https://ipfs.near.social/ipfs/**", (route) =>
      route.fulfill({ contentType: "image/png", body: PIXEL }),
    );
  },
  // Each journey starts signed out, whatever the previous one left behind (the development key itself stays).
  async afterEachTest(first) {
    await first?.evaluate(async () => {
      await fetch("/api/auth/logout", { method: "POST" });
      localStorage.removeItem("curate:wallet");
      localStorage.removeItem("curate:authorized");
    });
  },
});
const visit = (pathAndQuery: string, viewport?: Viewport) => session.visit(pathAndQuery, viewport);

/** The status of GET /api/users/me with the page's cookies. */
function meStatus(page: Page) {
  return page.evaluate(async () => (await fetch("/api/users/me")).status);
}

const header = (page: Page) => page.getByRole("banner");

async function signOutIfSignedIn(page: Page) {
  const trigger = header(page).getByTestId("account-menu-trigger");
  if (!(await trigger.isVisible())) return;
  await trigger.click();
  await page.getByRole("menuitem", { name: "Disconnect" }).click();
  await header(page).getByRole("button", { name: "Login" }).waitFor();
}

describe("Sign-in with the development wallet", () => {
  it("connects, authorizes, survives a reload, opens every profile tab and disconnects", async () => {
    const { page, pageErrors } = await visit("/profile");
    await page.getByRole("heading", { name: "Please Login to Continue" }).waitFor();
    expect(await meStatus(page)).toBe(401);

    const accountId = await signInWithDevWallet(page);
    expect(accountId).toMatch(/^[0-9a-f]{64}$/);
    await page.getByText("Authorization Successful!").waitFor();
    expect(await page.evaluate(() => fetch("/api/users/me").then((r) => r.json()))).toMatchObject({
      data: { nearAccountId: accountId },
    });

    // The social profile is read over NEAR RPC; with one on record the header and the card show its name.
    socialProfiles[accountId] = { name: "Dev Tester", image: { ipfs_cid: "bafkreidevtester" } };
    await page.reload();
    const trigger = header(page).getByTestId("account-menu-trigger");
    await trigger.waitFor();
    await expect.poll(() => trigger.getAttribute("aria-label")).toBe("Account menu for Dev Tester");
    expect(await header(page).getByRole("button", { name: "Authorize App" }).count()).toBe(0);

    await page.getByTestId("profile-card").getByRole("heading", { name: "Dev Tester" }).waitFor();
    expect(await page.getByTestId("profile-account-id").textContent()).toBe(accountId);
    expect(await page.getByTestId("profile-card").locator("img").getAttribute("src")).toBe(
      "https://ipfs.near.social/ipfs/bafkreidevtester",
    );

    // The account menu works from the keyboard: Enter opens it on the first item, arrows move, Escape closes.
    await trigger.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Profile");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Reminders");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Settings");
    await page.keyboard.press("End");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Disconnect");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "account-menu-trigger",
    );

    await trigger.click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    await page.waitForURL(`${baseUrl}/profile/overview`);
    await page.getByTestId("approver-for").getByText("You don't moderate any feeds yet.").waitFor();
    await page.getByTestId("curator-for").getByText("You haven't submitted to any feeds yet.").waitFor();

    const tabs = page.getByRole("navigation", { name: "Profile sections" });
    await tabs.getByRole("link", { name: "My Feeds" }).click();
    await page.getByText("You haven't created any feeds yet.").waitFor();
    expect(await page.getByRole("link", { name: "Create Your First Feed" }).getAttribute("href")).toBe(
      "/create/feed",
    );
    expect(await page.getByRole("link", { name: "Create New Feed" }).getAttribute("href")).toBe(
      "/create/feed",
    );

    await tabs.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("heading", { name: "Activity Log" }).waitFor();
    await page.getByText("No activity data available").waitFor();

    await tabs.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL(`${baseUrl}/profile/settings/connections`);
    await page.getByRole("link", { name: "Notifications" }).click();
    await page.getByText("Coming Soon").waitFor();

    await trigger.click();
    await page.getByRole("menuitem", { name: "Disconnect" }).click();
    await header(page).getByRole("button", { name: "Login" }).waitFor();
    await page.getByText("You have been signed out successfully.").waitFor();
    await page.getByRole("heading", { name: "Please Login to Continue" }).waitFor();
    expect(await meStatus(page)).toBe(401);
    expect(pageErrors).toEqual([]);
  });

  it("drops a stored authorization the server no longer honours back to Authorize App", async () => {
    const { page, pageErrors } = await visit("/");
    await signInWithDevWallet(page);
    // Revoke the session behind the app's back: the stored flag must not keep the visitor "signed in".
    await page.evaluate(() => fetch("/api/auth/logout", { method: "POST" }));
    await page.reload();
    await header(page).getByRole("button", { name: "Authorize App" }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("curate:authorized"))).toBeNull();

    await header(page).getByRole("button", { name: "Authorize App" }).click();
    await header(page).getByTestId("account-menu-trigger").waitFor();
    expect(await meStatus(page)).toBe(200);
    await signOutIfSignedIn(page);
    expect(pageErrors).toEqual([]);
  });

  it("lists the account's feeds with counts, search and the setup filter", async () => {
    const { page, pageErrors } = await visit("/");
    const accountId = await signInWithDevWallet(page);

    // The demo seed's feeds belong to seeded accounts; this account is served a few of them as its own.
    const all = (await (await fetch(`${baseUrl}/api/feeds`)).json()).data as FeedSummary[];
    const mine = all.slice(0, 3).map((feed, index) => (index === 2 ? { ...feed, complete: false } : feed));
    await page.route(`${baseUrl}/api/users/${accountId}/feeds`, (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          success: true,
          statusCode: 200,
          timestamp: new Date().toISOString(),
          data: mine,
        }),
      }),
    );

    await page.goto(`${baseUrl}/profile/my-feeds`);
    const cards = page.getByTestId("my-feed-card");
    await cards.nth(2).waitFor();
    expect(await cards.count()).toBe(3);

    const first = cards.first();
    const approved = (
      await (
        await fetch(`${baseUrl}/api/submissions/feed/${mine[0].id}?page=0&limit=1&status=approved`)
      ).json()
    ).data.pagination.totalCount as number;
    await expect
      .poll(() => first.getByTestId("content-count").textContent())
      .toMatch(new RegExp(`^${approved} `));
    const full = (await (await fetch(`${baseUrl}/api/feeds/${mine[0].id}`)).json()).data as Feed;
    const approvers = Object.values(full.config.moderation?.approvers ?? {}).flat().length;
    expect(await first.getByTestId("curator-count").textContent()).toMatch(new RegExp(`^${approvers} `));
    expect(await first.getByText("Setup incomplete").count()).toBe(0);
    expect(await cards.nth(2).getByText("Setup incomplete").count()).toBe(1);

    await page.getByLabel("Filter").selectOption("incomplete");
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().getAttribute("data-feed-id")).toBe(mine[2].id);
    await page.getByLabel("Filter").selectOption("completed");
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByLabel("Filter").selectOption("all");

    await page.getByLabel("Search").fill(mine[1].name.toUpperCase());
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByLabel("Search").fill("no feed is called this");
    await page.getByText("No feeds match your search criteria.").waitFor();

    await signOutIfSignedIn(page);
    expect(pageErrors).toEqual([]);
  });

  it("gives phones the same control in the menu", async () => {
    const { page, pageErrors } = await visit("/", PHONE);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await drawer.getByRole("button", { name: "Login" }).click();
    await page.getByRole("dialog", { name: "Connect a wallet" }).getByTestId("dev-wallet").click();
    await page.getByRole("button", { name: "Open menu" }).click();
    await drawer.getByRole("button", { name: "Authorize App" }).click();
    await drawer.getByTestId("account-panel").waitFor();
    await drawer.getByRole("button", { name: "Disconnect" }).click();
    await page.getByText("You have been signed out successfully.").waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    await drawer.getByRole("button", { name: "Login" }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("offers the development wallet only when the server says its development tools are on", async () => {
    // A client-rendered page: its settings come from the browser's own /api/config call, which this test answers
    // (a server-rendered page carries the server's real settings in its HTML).
    const { page } = await visit("/plugin");
    await page.route(`${baseUrl}/api/config`, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      await route.fulfill({
        response,
        json: { ...body, data: { ...body.data, environment: "production", devTools: false } },
      });
    });
    await page.reload();
    await hydrated(page);
    await header(page).getByRole("button", { name: "Login" }).click();
    const chooser = page.getByRole("dialog", { name: "Connect a wallet" });
    await chooser.getByRole("heading", { name: "NEAR wallets" }).waitFor();
    expect(await chooser.getByTestId("dev-wallet").count()).toBe(0);
    // Focus stays inside the chooser until it is closed.
    for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
    expect(await chooser.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await chooser.waitFor({ state: "detached" });
  });
});
