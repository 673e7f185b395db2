import type { CaughtMail } from "@curate/core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, launchBrowser, openPage } from "./support/browser.ts";
import { approveOnCuration, botHandleOf, postOnTestPage, signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const SHOTS = process.env.E2E_SCREENSHOT_DIR;
const session = browserSession(baseUrl);

const caught = async <T>(path: string): Promise<T> =>
  ((await (await fetch(`${baseUrl}/api/test/mails${path}`)).json()) as { data: T }).data;

/**
 * The development catch-all's mails to `to` (GET /api/test/mails, then each one), oldest first, once `count` have
 * arrived (or after two minutes).
 */
async function mailsTo(to: string, count: number): Promise<CaughtMail[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { items } = await caught<{ items: Array<{ id: string; to: string }> }>("?limit=100");
    const mine = items.filter((mail) => mail.to === to);
    if (mine.length >= count || Date.now() > deadline) {
      return Promise.all(mine.reverse().map((mail) => caught<CaughtMail>(`/${mail.id}`)));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const linkIn = (text: string, path: string) => {
  const match = text.match(new RegExp(`${baseUrl}${path}\\?token=[A-Za-z0-9_-]+`));
  if (!match) throw new Error(`no ${path} link in:\n${text}`);
  return match[0];
};

/** Screenshots at 1440 and 375 px when E2E_SCREENSHOT_DIR is set (for looking at the screens, not asserted). */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe("email newsletter", () => {
  it("a reader subscribes on the feed's page, confirms from the mail, receives an item and unsubscribes", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `mail${Date.now().toString(36)}`;
    const created = await page.evaluate(async (id) => {
      const response = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id,
          name: "Morning Letter",
          description: "Curated reading, by email too",
          outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/email", config: {} }] } },
        }),
      });
      return response.status;
    }, feedId);
    expect(created).toBe(201);

    // A reader in a browser of their own, never signed in: the form on the feed's page says who sees the address.
    const reader = await launchBrowser();
    try {
      const { page: readerPage, pageErrors: readerErrors } = await openPage(
        reader.context,
        `${baseUrl}/feed/${feedId}/content`,
      );
      const form = readerPage.getByRole("form", { name: "Subscribe to Morning Letter by email" });
      await form.waitFor();
      await readerPage.getByText("The feed's owner can see the addresses of its subscribers.").waitFor();
      await shoot(readerPage, "email-subscribe-form");
      const address = `reader-${feedId}@example.org`;
      await form.getByLabel("Email address").fill(address);
      await form.getByRole("button", { name: "Subscribe" }).click();
      await readerPage.getByText(/^Check your inbox/).waitFor();

      const [confirmation] = await mailsTo(address, 1);
      expect(confirmation.subject).toBe("Confirm your subscription to Morning Letter");
      // A developer reads the mail on the catch-all's page and follows its confirmation link from there.
      await readerPage.goto(`${baseUrl}/test/mails`);
      const listed = readerPage.getByRole("link", { name: new RegExp(`^${address}`) }).first();
      await listed.getByText("Confirm your subscription to Morning Letter").waitFor();
      await shoot(readerPage, "email-catch-all");
      await listed.click();
      const opened = readerPage.getByTestId("caught-mail");
      await opened.getByRole("heading", { name: "Confirm your subscription to Morning Letter" }).waitFor();
      await readerPage.frameLocator("iframe").getByRole("link", { name: "Confirm subscription" }).waitFor();
      await opened.getByRole("tab", { name: "Text" }).click();
      await shoot(readerPage, "email-catch-all-confirmation");
      await opened.getByRole("link", { name: linkIn(confirmation.text, "/email/confirm") }).click();
      await readerPage.getByRole("heading", { name: "Confirm your subscription" }).waitFor();
      await shoot(readerPage, "email-confirm");
      await readerPage.getByRole("button", { name: "Confirm subscription" }).click();
      await readerPage.getByText("You are subscribed to").waitFor();
      await shoot(readerPage, "email-confirmed");

      // The owner approves a post; the reader's mail arrives with its own links.
      const note = `letter-${Date.now().toString(36)}`;
      await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${note}`);
      await approveOnCuration(page, baseUrl, feedId, note);
      const [, item] = await mailsTo(address, 2);
      expect(item.subject).toBe("New in Morning Letter");
      expect(item.html).toContain("Unsubscribe");
      await readerPage.goto(`${baseUrl}/test/mails?mail=${item.id}`);
      const issue = readerPage.getByTestId("caught-mail");
      await issue.getByRole("heading", { name: "New in Morning Letter" }).waitFor();
      await issue.getByText("List-Unsubscribe-Post").waitFor();
      await issue.getByText(item.headers["List-Unsubscribe"]).waitFor();
      await shoot(readerPage, "email-catch-all-issue");
      // The mail itself, as a mail program shows its HTML part, light and dark.
      if (SHOTS) {
        const mailPage = await reader.context.newPage();
        await mailPage.setContent(item.html);
        await shoot(mailPage, "email-mail");
        await mailPage.emulateMedia({ colorScheme: "dark" });
        await shoot(mailPage, "email-mail-dark");
        await mailPage.close();
      }

      await readerPage.goto(linkIn(item.text, "/email/manage"));
      await readerPage.getByText("You receive").waitFor();
      await shoot(readerPage, "email-manage");
      await readerPage.goto(linkIn(item.text, "/email/unsubscribe"));
      await readerPage.getByRole("button", { name: "Unsubscribe" }).click();
      await readerPage.getByText(/You are unsubscribed from/).waitFor();
      await shoot(readerPage, "email-unsubscribed");
      // The link is spent: the address is gone.
      await readerPage.reload();
      await readerPage.getByText("This subscription no longer exists").waitFor();
      expect(readerErrors).toEqual([]);
    } finally {
      await reader.close();
    }

    // The owner's numbers.
    await page.goto(`${baseUrl}/feed/${feedId}/settings/email`);
    await page.getByRole("heading", { name: "Email newsletter" }).waitFor();
    await page.getByText("1 confirmed, 1 unsubscribed.").waitFor();
    await shoot(page, "email-owner");
    expect(pageErrors).toEqual([]);
  });
});
