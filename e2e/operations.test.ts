import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, PHONE } from "./support/browser.ts";
import { signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

/** Full-page screenshots at 1440 and 375 px when E2E_SCREENSHOT_DIR is set (for looking at, not asserted). */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

describe("the Operations page", () => {
  it("asks a visitor to sign in as a super admin", async () => {
    const { page, pageErrors } = await session.visit("/operations");
    await page.getByRole("heading", { level: 1, name: "Operations" }).waitFor();
    await page.getByText("Sign in as a super admin to see the Operations page.").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("is not in the account menu of a signed-in user who is not a super admin", async () => {
    const { page, pageErrors } = await session.visit("/");
    // No key stored yet in this browser: the development wallet makes a new account, which no one made an admin.
    await signInWithDevWallet(page);
    await page.getByRole("banner").getByTestId("account-menu-trigger").click();
    await page.getByRole("menuitem", { name: "Settings" }).waitFor();
    expect(await page.getByRole("menuitem").allTextContents()).not.toContain("Operations");
    expect(pageErrors).toEqual([]);
    // The next journey signs the super admin in from a signed-out browser.
    await page.evaluate(async () => {
      await fetch("/api/auth/logout", { method: "POST" });
      localStorage.removeItem("curate:wallet");
      localStorage.removeItem("curate:authorized");
    });
  });

  it("shows a super admin the workers, queues, intake sources, budgets and the log's self-check", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    // Reached from the account menu, which shows Operations to super admins only.
    await page.getByRole("banner").getByTestId("account-menu-trigger").click();
    const entry = page.getByRole("menuitem", { name: "Operations" });
    await entry.waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/operations-menu-1440.png` });
    await entry.click();
    await page.getByRole("heading", { level: 1, name: "Operations" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/operations");

    const workers = page.getByRole("table", { name: "Workers" });
    await workers.getByText("live").first().waitFor();
    // Intake polls every second in this stack: its sources appear as the page reads again.
    const sources = page.getByRole("table", { name: "Intake sources" });
    await expect
      .poll(
        async () => {
          await page.reload();
          await sources.waitFor();
          return sources.getByRole("row").count();
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(1);
    expect(await sources.textContent()).toContain("test:mentions");

    const budgets = page.getByTestId("operations-budgets");
    expect(await budgets.textContent()).toMatch(/X API\d+ of \d+ used, \d+ left/);
    expect(await page.getByRole("meter", { name: "X API budget used" }).getAttribute("aria-valuemax")).toBe(
      "300",
    );
    // The worker checks every feed's moderation log on its own beat: before the first check ends, the page says so.
    expect(await page.getByTestId("operations-log-check").textContent()).toMatch(
      /chain intact|No check has finished yet\./,
    );
    expect(await page.getByTestId("operations-alerts").textContent()).toContain(
      "No webhook or Telegram chat is configured, so alerts show here only.",
    );
    for (const title of ["Queues", "Failure rates", "Paused channels", "Recent errors"]) {
      await page.getByRole("region", { name: title }).waitFor();
    }
    await shoot(page, "operations");

    // On a phone the tables scroll inside their cards instead of widening the page.
    await page.setViewportSize(PHONE);
    await page.getByRole("table", { name: "Intake sources" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The phone menu has the same entry.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Operations" }).waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/operations-menu-375.png` });
    expect(pageErrors).toEqual([]);
  });
});
