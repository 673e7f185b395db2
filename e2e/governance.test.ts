import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, DESKTOP, PHONE } from "./support/browser.ts";
import { botHandleOf, createFeedAs, signInAsModerator, toastShown } from "./support/journeys.ts";
import { MODERATOR_ACCOUNT_ID } from "./support/moderator.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
/** Where the journey leaves its screenshots for people to look at (issue 32). */
const SHOTS = process.env.CURATE_SHOTS_DIR ?? "/tmp/curate-shots/governance";
mkdirSync(SHOTS, { recursive: true });

const shortModerator = `${MODERATOR_ACCOUNT_ID.slice(0, 8)}…${MODERATOR_ACCOUNT_ID.slice(-6)}`;

/** Posts on X's stand-in (the test route runs intake at once) as `username`; answers the post's id. */
function postAs(page: Page, text: string, username: string, inReplyToStatusId?: string): Promise<string> {
  return page.evaluate(
    async (body) => {
      const response = await fetch("/api/test/tweets", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await response.json()).data.id as string;
    },
    { text, username, inReplyToStatusId },
  );
}

describe("quorum and earned trust", () => {
  it("sets the policy in the editor, shows the tally while votes come in, and publishes at the quorum", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const bot = await botHandleOf(page);
    const feedId = `quorum${Date.now().toString(36)}`;
    expect(
      await createFeedAs(page, {
        id: feedId,
        name: "Quorum Journey",
        description: "Two approvers agree before anything is published",
        // An undo window, so the approvers who voted can take the approval back after the quorum.
        moderation: { approvers: { twitter: ["e2e_approver"] }, undoWindowSeconds: 600 },
        outputs: { stream: { enabled: true } },
      }),
    ).toBe(201);

    // The owner asks for two approvals and turns earned trust on, pinning one curator in.
    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByLabel("Approvals Needed").fill("2");
    await page.getByLabel("Earned trust: a trusted curator's submission counts as one approval").check();
    await page.getByTestId("trust-settings").waitFor();
    // The moderator pins their own account too, so their profile shows a standing.
    await page.getByLabel("Always Trusted").fill(`e2e_trusted, ${MODERATOR_ACCOUNT_ID}`);
    const note = page.getByTestId("quorum-change-note");
    expect(await note.innerText()).toContain("never re-decides posts already approved or rejected");
    const section = page
      .locator("fieldset")
      .filter({ has: page.getByText("Quorum and Trust", { exact: true }) });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${SHOTS}/policy-editor-1440.png` });
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toastShown(page, "Feed configuration updated successfully.");
    const saved = await page.evaluate(
      async (id) => (await (await fetch(`/api/feeds/${id}`)).json()).data.config.moderation,
      feedId,
    );
    expect(saved.quorum).toEqual({ approvals: 2, rejection: "veto" });
    expect(saved.trust).toMatchObject({
      enabled: true,
      pinned: { trusted: ["e2e_trusted", MODERATOR_ACCOUNT_ID] },
    });
    // The JSON view holds the same policy.
    await page.getByRole("tab", { name: "JSON View" }).click();
    await expect.poll(() => page.getByLabel("Feed configuration (JSON)").inputValue()).toContain('"quorum"');

    // A curator's post waits for two approvers; the moderator's click is one vote.
    const marker = `quorum-post-${Date.now().toString(36)}`;
    const submitId = await postAs(page, `!submit @${bot} #${feedId} ${marker}`, "e2e_curator");
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const card = page.getByTestId("submission-card").filter({ hasText: marker });
    const tally = card.getByTestId("vote-tally");
    await tally.waitFor();
    expect(await tally.innerText()).toContain("0 of 2 approvals");
    await card.getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "Vote counted");
    await expect.poll(() => tally.innerText()).toContain(`1 of 2 approvals: ${shortModerator}`);
    expect(await card.getAttribute("data-status")).toBe("pending");
    await card.screenshot({ path: `${SHOTS}/curation-tally-1440.png` });

    // The pinned curator is on the feed page's list of trusted curators, with why; a curator who never reached
    // the bar is not listed for having submitted.
    const trust = page.getByTestId("feed-trust");
    await trust.waitFor();
    expect(await trust.innerText()).toContain("Pinned as trusted by the feed's owners");
    expect(await trust.getByTestId("trust-entry").count()).toBe(2);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/feed-page-1440.png` });

    // The submission page shows the tally too, and reads on a phone.
    const postId = await page.evaluate(
      async ([id, text]) => {
        const list = await (await fetch(`/api/submissions/feed/${id}?status=pending`)).json();
        return list.data.items.find((item: { content: string }) => item.content.includes(text))
          .tweetId as string;
      },
      [feedId, marker],
    );
    const phone = await session.visit(`/submission/${postId}`, PHONE);
    const phoneTally = phone.page.getByTestId("vote-tally");
    await phoneTally.waitFor();
    expect(await phoneTally.innerText()).toContain("1 of 2 approvals");
    await phone.page.screenshot({ path: `${SHOTS}/submission-tally-375.png`, fullPage: true });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    // The second approver replies on X: the quorum is met and the post is approved.
    await postAs(page, `!approve @${bot}`, "e2e_approver", submitId);
    await page.goto(`${baseUrl}/submission/${postId}`);
    const settled = page.getByTestId("vote-tally");
    await expect
      .poll(() => settled.innerText())
      .toContain(`2 of 2 approvals: ${shortModerator}, @e2e_approver`);
    expect(await page.getByTestId("submission-card").getAttribute("data-status")).toBe("approved");
    await page.screenshot({ path: `${SHOTS}/submission-approved-1440.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      DESKTOP.width,
    );

    // The reply met the quorum, so only its author's side was told; the moderator, who voted first, finds Undo on
    // the card while the window lasts, and takes the approval back.
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const approvedCard = page.getByTestId("submission-card").filter({ hasText: marker });
    const undo = approvedCard.getByTestId("undo-approval");
    await undo.waitFor();
    expect(await approvedCard.getAttribute("data-status")).toBe("approved");
    await approvedCard.screenshot({ path: `${SHOTS}/curation-undo-1440.png` });
    await undo.click();
    await toastShown(page, "Undone");
    await expect.poll(() => approvedCard.getAttribute("data-status")).toBe("pending");
    expect(await undo.count()).toBe(0);

    // The editor on a phone.
    const phoneEditor = await session.visit(`/edit/feed/${feedId}`, PHONE);
    const phoneSection = phoneEditor.page
      .locator("fieldset")
      .filter({ has: phoneEditor.page.getByText("Quorum and Trust", { exact: true }) });
    await phoneSection.waitFor();
    // The page as a person sees it there (an element shot would draw the sticky header and save bar over it).
    await phoneSection.getByText("Quorum and Trust", { exact: true }).evaluate((heading) => {
      heading.scrollIntoView();
      // Clear of the sticky header.
      window.scrollBy(0, -88);
    });
    await phoneEditor.page.screenshot({ path: `${SHOTS}/policy-editor-375.png` });
    expect(await phoneEditor.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    // The curator's profile lists their standing in the feed, and why.
    await page.goto(`${baseUrl}/profile/overview`);
    const standing = page.getByTestId("profile-trust");
    await standing.getByTestId("trust-entry").waitFor();
    expect(await standing.innerText()).toContain("Quorum Journey");
    expect(await standing.innerText()).toContain("Pinned as trusted by the feed's owners");
    await page.screenshot({ path: `${SHOTS}/profile-trust-1440.png`, fullPage: true });
    const phoneProfile = await session.visit("/profile/overview", PHONE);
    await phoneProfile.page.getByTestId("profile-trust").getByTestId("trust-entry").waitFor();
    await phoneProfile.page.screenshot({ path: `${SHOTS}/profile-trust-375.png`, fullPage: true });
    expect(await phoneProfile.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    expect(pageErrors).toEqual([]);
    expect(phone.pageErrors).toEqual([]);
    expect(phoneProfile.pageErrors).toEqual([]);
    expect(phoneEditor.pageErrors).toEqual([]);
  });
});
