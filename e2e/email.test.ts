import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, launchBrowser, openPage } from "./support/browser.ts";
import { approveOnCuration, botHandleOf, postOnTestPage, signInAsModerator } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const SHOTS = process.env.E2E_SCREENSHOT_DIR;
const session = browserSession(baseUrl);

interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The development catch-all's mails to `to` (GET /api/test/mails), once `count` have arrived (or after two minutes). */
async function mailsTo(to: string, count: number): Promise<CaughtMail[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/test/mails`);
    const mails = ((await response.json()) as { data: CaughtMail[] }).data.filter((mail) => mail.to === to);
    if (mails.length >= count || Date.now() > deadline) return mails.reverse();
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
      await readerPage.goto(linkIn(confirmation.text, "/email/confirm"));
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
