import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { browserSession } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const feedId = `screens${Date.now().toString(36)}`;

const config = {
  id: feedId,
  name: "Screens Feed",
  description: "A feed for the editor journeys",
  enabled: true,
  sources: [],
  outputs: {
    stream: {
      enabled: false,
      transform: [{ plugin: "@curate/object-transform", config: { mappings: { content: "{{content}}" } } }],
      distribute: [],
    },
  },
};

const toast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text }).first();

async function signedOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
}

/** The owner: signed in with the profile's development wallet, which created the feed. */
async function asOwner(path: string) {
  const { page } = await session.visit(path);
  await signedOut(page);
  await page.evaluate((key) => localStorage.setItem("curate:dev-wallet-key", key), ownerKey);
  await page.reload();
  await signInWithDevWallet(page);
  return page;
}

let ownerKey: string;

beforeAll(async () => {
  const page = await session.newPage();
  await page.goto(`${baseUrl}/`);
  await signInWithDevWallet(page);
  ownerKey = (await page.evaluate(() => localStorage.getItem("curate:dev-wallet-key"))) ?? "";
  const status = await page.evaluate(
    async (body) =>
      (
        await fetch("/api/feeds", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status,
    config,
  );
  expect(status).toBe(201);
  await page.close();
});

describe("owners find the editor; others are told they cannot edit", () => {
  it("shows a visitor no Edit button, no Continue Feed Setup, and a read-only notice on the edit page", async () => {
    const { page } = await session.visit(`/feed/${feedId}/curation`);
    await signedOut(page);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Screens Feed" }).waitFor();
    await page.getByText("This Feed isn't set up yet").waitFor();
    expect(await page.getByTestId("edit-feed-link").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Continue Feed Setup" }).count()).toBe(0);

    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByText("You cannot edit this feed.").waitFor();
    expect(await page.getByRole("button", { name: "Save Changes" }).count()).toBe(0);
  });

  it("gives the owner an Edit button on the feed page, on My Feeds and from Settings → General", async () => {
    const page = await asOwner(`/feed/${feedId}/curation`);
    await page.getByRole("link", { name: "Continue Feed Setup" }).waitFor();
    await page.getByTestId("edit-feed-link").click();
    await page.waitForURL(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByRole("button", { name: "Save Changes" }).waitFor();

    await page.goto(`${baseUrl}/feed/${feedId}/settings`);
    await page.getByRole("link", { name: "Open the feed editor" }).click();
    await page.waitForURL(`${baseUrl}/edit/feed/${feedId}`);

    await page.goto(`${baseUrl}/profile/my-feeds`);
    const card = page.locator(`[data-testid=my-feed-card][data-feed-id=${feedId}]`);
    await card.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(`${baseUrl}/edit/feed/${feedId}`);
  });
});

describe("no lost edits", () => {
  it("keeps a step config typed just before the JSON View tab is clicked", async () => {
    const page = await asOwner(`/edit/feed/${feedId}`);
    const field = page.getByLabel("Transform 1 config (JSON)");
    await field.fill('{ "mappings": { "content": "{{content}}", "kept": "yes" } }');
    await page.getByRole("tab", { name: "JSON View" }).click();
    const json = page.getByLabel("Feed configuration (JSON)");
    await expect.poll(() => json.inputValue()).toContain('"kept": "yes"');
  });

  it("stops Save on a step config that is not valid JSON, and says so", async () => {
    const page = await asOwner(`/edit/feed/${feedId}`);
    const field = page.getByLabel("Transform 1 config (JSON)");
    await field.fill('{ "mappings": ');
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Invalid JSON").waitFor();
    expect(await toast(page, "Feed configuration updated successfully.").count()).toBe(0);
    expect(await field.inputValue()).toBe('{ "mappings": ');
  });

  it("marks unsaved changes, asks before leaving, and keeps Save in reach", async () => {
    const page = await asOwner(`/edit/feed/${feedId}`);
    expect(await page.getByTestId("unsaved-marker").count()).toBe(0);
    await page.getByLabel("Feed Name").fill("Screens Feed renamed");
    await page.getByTestId("unsaved-marker").waitFor();

    // Scrolled to the top of a long form, Save is still on screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.getByRole("button", { name: "Save Changes" }).isVisible()).toBe(true);
    const box = await page.getByRole("button", { name: "Save Changes" }).boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(900);

    const dialogs: string[] = [];
    page.once("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("banner").getByRole("link", { name: "Leaderboard" }).click();
    await expect.poll(() => dialogs.length).toBe(1);
    expect(dialogs[0]).toContain("unsaved changes");
    expect(new URL(page.url()).pathname).toBe(`/edit/feed/${feedId}`);

    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Feed configuration updated successfully.").waitFor();
    await page.getByTestId("unsaved-marker").waitFor({ state: "detached" });
  });

  it("refuses the second of two tabs saving the same feed with a clear 409", async () => {
    const first = await asOwner(`/edit/feed/${feedId}`);
    const second = await session.newPage();
    await second.goto(`${baseUrl}/edit/feed/${feedId}`);
    await second.getByRole("button", { name: "Save Changes" }).waitFor();

    await first.getByLabel("Description").fill("Saved from the first tab");
    await first.getByRole("button", { name: "Save Changes" }).click();
    await toast(first, "Feed configuration updated successfully.").waitFor();

    await second.getByLabel("Description").fill("Saved from the second tab");
    await second.getByRole("button", { name: "Save Changes" }).click();
    await toast(second, "changed since you opened it").waitFor();
    const saved = (await (await fetch(`${baseUrl}/api/feeds/${feedId}`)).json()).data;
    expect(saved.description).toBe("Saved from the first tab");
  });

  it("says what is wrong in words, never as a raw validator message", async () => {
    const page = await asOwner(`/edit/feed/${feedId}`);
    await page.getByRole("button", { name: "Add Transform" }).click();
    await page.getByRole("button", { name: "Save Changes" }).click();
    const issues = page.getByTestId("field-issues");
    await issues.waitFor();
    const text = (await issues.textContent()) ?? "";
    expect(text).toContain("Stream transform 2: plugin name");
    expect(text).not.toMatch(/outputs\.stream|Too small|expected string/);
  });

  it("checks the image in the browser, names what it accepts and never spills a broken preview's alt text", async () => {
    const page = await asOwner(`/edit/feed/${feedId}`);
    await page.getByText("PNG, JPEG, GIF or WebP, at most 5 MB.", { exact: false }).waitFor();
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/upload")) uploads.push(request.url());
    });
    const input = page.getByLabel("Image file");
    await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByRole("button", { name: "Upload" }).click();
    await toast(page, "Choose a PNG, JPEG, GIF or WebP image.").waitFor();
    await input.setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    await page.getByRole("button", { name: "Upload" }).click();
    await toast(page, "The image is larger than 5 MB.").waitFor();
    expect(uploads).toEqual([]);

    await input.setInputFiles({
      name: "broken.png",
      mimeType: "image/png",
      buffer: Buffer.from("not an image"),
    });
    await page.getByTestId("image-preview").waitFor({ state: "detached" });
  });
});
