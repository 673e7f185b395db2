import type { Submission } from "@curate/core";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession, launchBrowser, openPage } from "./support/browser.ts";
import { E2E_BLUESKY_BOT, E2E_MASTODON_BOT, E2E_MASTODON_DOMAIN, postOn } from "./support/fake-networks.ts";
import { createFeedAs, signInAsModerator, toastShown } from "./support/journeys.ts";
import { baseUrl, networksControlUrl } from "./support/stack.ts";

const control = networksControlUrl;
const session = browserSession(baseUrl);
// The approver is another person, in a browser of her own: the feed's creator would be a moderator anyway.
let approverBrowser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

afterAll(async () => {
  await approverBrowser?.close();
});

const WAIT_MS = 120_000;

/** Asks `read` until `done` says yes, as intake and the engine work on their own beat. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function feedSubmissions(feedId: string): Promise<Submission[]> {
  const response = await fetch(`${baseUrl}/api/submissions/feed/${feedId}?limit=50`);
  return (await response.json()).data.items;
}

async function rssItems(feedId: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/rss/${feedId}/rss.xml`, { cache: "no-store" });
  if (!response.ok) return [];
  return (await response.text()).split("<item>").slice(1);
}

/** A feed publishing approvals to this deployment's RSS, whose only approver is a Bluesky handle. */
async function createFeed(page: Page, feedId: string, approver: string) {
  const status = await createFeedAs(page, {
    id: feedId,
    name: "Open Networks",
    description: "Posts from every network, in one queue",
    moderation: { approvers: { bluesky: [approver] } },
    outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss", config: {} }] } },
  });
  expect(status).toBe(201);
}

/** Gets a one-time code on the connections page, posts it from a network, and waits for the handle to link. */
async function linkHandle(
  page: Page,
  post: (command: string) => Promise<unknown>,
  handle: string,
  label: string,
) {
  if (!(await page.getByTestId("link-code").count())) {
    await page.getByRole("button", { name: "Get a Link Code" }).click();
  }
  const command = page.getByTestId("link-code").locator("code");
  await command.waitFor();
  expect(await command.textContent()).toMatch(/^!link CUR-[A-Z2-9]{8}$/);
  await post((await command.textContent()) ?? "");
  // The list is asked again every few seconds while a code waits; the spent code then leaves the screen.
  await page
    .getByTestId("linked-handle")
    .filter({ hasText: `@${handle}` })
    .filter({ hasText: label })
    .waitFor({ timeout: WAIT_MS });
  await page.getByTestId("link-code").waitFor({ state: "detached" });
  await toastShown(page, `Linked @${handle} on ${label}`);
}

describe("one queue fed by every network", () => {
  it("a post submitted on Bluesky and approved on Mastodon by a linked approver lands once in the queue and once in RSS", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `nets${Date.now().toString(36)}`;
    const erinBluesky = `erin${Date.now().toString(36)}.bsky.social`;
    const erinMastodon = `erin${Date.now().toString(36)}@fosstodon.example`;
    await createFeed(page, feedId, erinBluesky);

    // Erin signs in with her own wallet and proves both handles are hers.
    approverBrowser = await launchBrowser();
    const erin = await openPage(approverBrowser.context, `${baseUrl}/`);
    session.watch(erin.page);
    await signInWithDevWallet(erin.page);
    await erin.page.goto(`${baseUrl}/profile/settings/connections`);
    await erin.page.getByRole("heading", { name: "Linked Handles" }).waitFor();
    await erin.page.getByRole("button", { name: "Get a Link Code" }).click();
    const instructions = await erin.page.getByTestId("link-code").textContent();
    expect(instructions).toContain(`@${E2E_BLUESKY_BOT} on Bluesky`);
    expect(instructions).toContain(`@${E2E_MASTODON_BOT}@${E2E_MASTODON_DOMAIN} on Mastodon`);
    await linkHandle(
      erin.page,
      (command) =>
        postOn(control, "bluesky", { handle: erinBluesky, text: `@${E2E_BLUESKY_BOT} ${command}` }),
      erinBluesky,
      "Bluesky",
    );
    await linkHandle(
      erin.page,
      (command) => postOn(control, "mastodon", { by: erinMastodon, text: `@${E2E_MASTODON_BOT} ${command}` }),
      erinMastodon,
      "Mastodon",
    );

    // Two curators submit the same Bluesky post.
    const marker = `portable-${Date.now().toString(36)}`;
    const { uri } = await postOn<{ uri: string }>(control, "bluesky", {
      handle: "bob.bsky.social",
      displayName: "Bob Builder",
      text: `Open protocols make curation portable ${marker}`,
    });
    for (const curator of ["amy.bsky.social", "cal.bsky.social"]) {
      await postOn(control, "bluesky", {
        handle: curator,
        text: `!submit @${E2E_BLUESKY_BOT} #${feedId}`,
        replyTo: uri,
      });
    }
    const [pending] = await eventually(
      () => feedSubmissions(feedId),
      (items) => items.length > 0,
      "the Bluesky submission",
    );
    expect(pending.platform).toBe("bluesky");
    expect(pending.username).toBe("bob.bsky.social");
    expect(pending.authorDisplayName).toBe("Bob Builder");
    expect(pending.content).toContain(marker);
    expect(pending.url).toMatch(/^https:\/\/bsky\.app\/profile\/bob\.bsky\.social\/post\/[a-z2-7]{13}$/);
    expect(pending.status).toBe("pending");

    // Erin approves from Mastodon, naming the post by its address: a reply there cannot reach a Bluesky post.
    await postOn(control, "mastodon", {
      by: erinMastodon,
      text: `@${E2E_MASTODON_BOT} !approve ${pending.url} worth reading`,
    });
    const [approved] = await eventually(
      () => feedSubmissions(feedId),
      (items) => items[0]?.status === "approved",
      "the approval from Mastodon",
    );
    expect(approved.moderationHistory.at(-1)?.action).toBe("approve");

    const items = await eventually(
      () => rssItems(feedId),
      (list) => list.length > 0,
      "the RSS item",
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toContain(marker);

    // The curation tab shows it once, approved, from Bluesky.
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const cards = page.getByTestId("submission-card");
    await cards.filter({ hasText: marker }).waitFor();
    expect(await cards.count()).toBe(1);
    expect(await cards.first().getAttribute("data-status")).toBe("approved");
    // Where it comes from, and the way back to it.
    expect(
      await cards
        .first()
        .getByRole("link", { name: /View on Bluesky/ })
        .getAttribute("href"),
    ).toBe(pending.url);
    expect(await cards.first().textContent()).toContain("@bob.bsky.social");
    // Erin approved from Mastodon: she shows as her handle there, with its mark and her profile, not a stored key.
    const decision = cards.first().getByTestId("decision-note");
    const [erinName, erinInstance] = erinMastodon.split("@");
    expect(await decision.getByRole("link", { name: `Mastodon @${erinMastodon}` }).getAttribute("href")).toBe(
      `https://${erinInstance}/@${erinName}`,
    );
    expect(await decision.textContent()).not.toContain("mastodon:");
    // The feed reads no source of its own: its posts come from mentions on the networks the bot listens on.
    const origins = page.getByTestId("feed-origins");
    expect(await origins.getByTestId("feed-source").count()).toBe(0);
    expect(await origins.textContent()).toMatch(/^Curating from\s+mentions on\s+.*Bluesky.*Mastodon/);
    expect(await feedSubmissions(feedId)).toHaveLength(1);
    expect(pageErrors).toEqual([]);
    expect(erin.pageErrors).toEqual([]);
  });
});
