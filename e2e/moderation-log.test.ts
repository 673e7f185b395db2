import { describe, expect, it } from "vitest";
import { browserSession, DESKTOP, PHONE } from "./support/browser.ts";
import {
  approveOnCuration,
  botHandleOf,
  createFeedAs,
  postOnTestPage,
  signInAsModerator,
} from "./support/journeys.ts";
import { MODERATOR_ACCOUNT_ID } from "./support/moderator.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

describe("the Moderation log tab", () => {
  it("shows every decision in order, filters them, and reads on a phone", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const botHandle = await botHandleOf(page);
    const feedId = `mlog${Date.now().toString(36)}`;
    expect(
      await createFeedAs(page, {
        id: feedId,
        name: "Modlog Journey",
        description: "A feed whose decisions anyone can read and check",
        moderation: { approvers: { twitter: ["e2e_approver"] } },
        outputs: { stream: { enabled: true } },
      }),
    ).toBe(201);
    const kept = `kept-${Date.now().toString(36)}`;
    const dropped = `dropped-${Date.now().toString(36)}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${kept}`);
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${dropped}`);
    await approveOnCuration(page, baseUrl, feedId, kept);
    const droppedId = await page.evaluate(async (id) => {
      const list = await (await fetch(`/api/submissions/feed/${id}?status=pending`)).json();
      return list.data.items[0].tweetId as string;
    }, feedId);
    const rejected = await page.evaluate(
      async ([id, submissionId]) =>
        (
          await fetch("/api/moderate", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              feedId: id,
              submissionId,
              action: "reject",
              note: "Off topic for this feed",
            }),
          })
        ).status,
      [feedId, droppedId],
    );
    expect(rejected).toBe(200);

    await page.goto(`${baseUrl}/feed/${feedId}/log`);
    await page.getByRole("heading", { level: 2, name: "Moderation log" }).waitFor();
    const entries = page.getByTestId("log-entry");
    await entries.first().waitFor();
    expect(await entries.count()).toBe(6);
    // Newest first, like a modlog: the rejection with its reason, the approval, the two submissions, the rules.
    const rows = await entries.evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText));
    expect(rows[0]).toContain("Rejected");
    expect(rows[0]).toContain("Off topic for this feed");
    // A long implicit account reads shortened, whole in its tooltip.
    expect(rows[0]).toContain(`${MODERATOR_ACCOUNT_ID.slice(0, 8)}…${MODERATOR_ACCOUNT_ID.slice(-6)}`);
    expect(await entries.first().getByTitle(MODERATOR_ACCOUNT_ID).count()).toBe(1);
    expect(rows[1]).toContain("Approved");
    expect(rows[1]).toContain("in the app");
    expect(rows[2]).toContain("Submitted");
    expect(rows[2]).toContain("@e2e_curator");
    expect(rows[2]).toContain("by post on X");
    expect(rows[4]).toContain("Approvers changed");
    expect(rows[4]).toContain("Added X: @e2e_approver");
    expect(rows[5]).toContain("Log started");
    expect(rows[5]).toContain("Nothing was decided in this feed before the log began.");
    expect(await page.getByRole("link", { name: "Download (JSON Lines)" }).getAttribute("href")).toBe(
      `/api/feeds/${feedId}/log/download`,
    );

    await page.getByLabel("Action").selectOption("reject");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/action=reject/);
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().innerText()).toContain("Rejected");
    await page.getByRole("button", { name: "Clear" }).click();
    await expect.poll(() => entries.count()).toBe(6);

    await page.screenshot({ path: "/tmp/modlog-1440.png", fullPage: true });
    const phone = await session.visit(`/feed/${feedId}/log`, PHONE);
    await phone.page.getByTestId("log-entry").first().waitFor();
    await phone.page.screenshot({ path: "/tmp/modlog-375.png", fullPage: true });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      DESKTOP.width,
    );
    expect(pageErrors).toEqual([]);
    expect(phone.pageErrors).toEqual([]);
  });
});
