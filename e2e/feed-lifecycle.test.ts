import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { describePagesIfFailed, launchBrowser, openPage } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

/** A real 1×1 PNG: the server checks uploads by their bytes, so the test sends an actual image. */
const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: Error[];
let takenId: string;
const feedId = `solar${Date.now().toString(36)}`;

interface StoredFeed {
  name: string;
  image: string | null;
  config: {
    name: string;
    description: string;
    image?: string;
    pollingIntervalMs?: number;
    moderation?: { approvers?: Record<string, string[]> };
    outputs?: {
      stream?: { enabled: boolean; transform?: { plugin: string }[]; distribute?: DistributorConfig[] };
    };
  };
}
interface DistributorConfig {
  plugin: string;
  config: Record<string, unknown>;
}

async function storedFeed(id: string): Promise<{ status: number; feed?: StoredFeed }> {
  const response = await fetch(`${baseUrl}/api/feeds/${id}`);
  return { status: response.status, feed: response.ok ? (await response.json()).data : undefined };
}

/** A toast with this text, visible or stacked behind newer ones (sonner shows at most three). */
const toast = (text: string) => ({
  waitFor: () =>
    page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ state: "attached" }),
});

beforeAll(async () => {
  browser = await launchBrowser();
  const feeds: Array<{ id: string }> = (await (await fetch(`${baseUrl}/api/feeds`)).json()).data;
  const seeded = feeds.find((feed) => feed.id !== "all");
  if (!seeded) throw new Error("The seeded server has no feed");
  takenId = seeded.id;
  ({ page, pageErrors } = await openPage(browser.context, `${baseUrl}/`));
});

// The journey's one page, described when a step fails (the other journeys' sessions do this for their pages).
afterEach(async (context) => {
  if (page) await describePagesIfFailed(context, [page]);
});

afterAll(async () => {
  await browser?.close();
});

// One journey in order: each step starts where the previous one left the feed.
describe("feed lifecycle", () => {
  it("asks signed-out visitors to log in before creating a feed", async () => {
    await page.goto(`${baseUrl}/create/feed`);
    await page.getByText("Step 1 of 3").waitFor();
    await page.getByText("Please login to create a feed").waitFor();
    expect(await page.getByRole("main").getByRole("button", { name: "Login" }).count()).toBe(1);
  });

  it("fills step 1 from the search parameters, validates it and refuses a taken hashtag", async () => {
    await page.goto(`${baseUrl}/`);
    await signInWithDevWallet(page);
    await page.goto(`${baseUrl}/create/feed?name=Solar%20Weekly&description=Short`);
    const name = page.getByLabel("Feed name");
    await expect.poll(() => name.inputValue()).toBe("Solar Weekly");
    await expect.poll(() => new URL(page.url()).search).toBe("");

    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Description must be at least 10 characters").waitFor();
    await page.getByText("Please provide at least one hashtag").waitFor();
    expect(new URL(page.url()).pathname).toBe("/create/feed");
    await name.fill("So");
    await name.blur();
    await page.getByText("Feed name must be at least 3 characters").waitFor();
    await name.fill("Solar Weekly");
    await page.getByLabel("Description").fill("The week's best solar energy news, picked by engineers.");

    const hashtag = page.getByLabel("Hashtag");
    await hashtag.fill(takenId.toUpperCase());
    expect(await hashtag.inputValue()).toBe(takenId);
    const validating = page.getByRole("button", { name: "Validating..." });
    await validating.waitFor();
    expect(await validating.isDisabled()).toBe(true);
    await page.getByText("This hashtag is already taken.").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    expect(new URL(page.url()).pathname).toBe("/create/feed");

    await hashtag.fill(feedId);
    await expect.poll(() => page.getByText("This hashtag is already taken.").count()).toBe(0);
    await page.getByRole("button", { name: "Next" }).click();
    await page.waitForURL("**/create/feed/settings");
  });

  it("keeps the draft across steps and a reload, with Twitter approvers and Telegram", async () => {
    await page.getByText("Step 2 of 3").waitFor();
    const add = page.getByRole("button", { name: "Add approver" });
    await page.getByLabel("Handle").fill("   ");
    expect(await add.isDisabled()).toBe(true);
    await page.getByLabel("Handle").fill("@SolarAlice");
    await add.click();
    await page.getByRole("list", { name: "Approvers" }).getByText("@SolarAlice").waitFor();
    await page.getByLabel("Post approved content to Telegram").check();
    await page.getByLabel("Chat id or channel").fill("@solar_e2e");

    await page.reload();
    await page.getByRole("list", { name: "Approvers" }).getByText("@SolarAlice").waitFor();
    expect(await page.getByLabel("Chat id or channel").inputValue()).toBe("@solar_e2e");

    await page.getByRole("link", { name: "Previous" }).click();
    await page.getByText("Step 1 of 3").waitFor();
    expect(await page.getByLabel("Hashtag").inputValue()).toBe(feedId);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Step 3 of 3").waitFor();
    await page.getByRole("heading", { name: "Feed Review" }).waitFor();
    // Where the feed will publish: its own RSS file, not the RSS service's root.
    const postingTo = page.getByTestId("review-destinations");
    expect(await postingTo.getByRole("link", { name: `${baseUrl}/rss/${feedId}/rss.xml` }).count()).toBe(1);
    expect(await postingTo.textContent()).not.toMatch(new RegExp(`${baseUrl}/rss(?!/${feedId})`));
  });

  it("creates the feed with the draft's defaults and lands on its page", async () => {
    await page.getByRole("button", { name: "Create Feed" }).click();
    await toast("Feed Created Successfully!").waitFor();
    await toast('Your feed "Solar Weekly" has been created.').waitFor();
    await page.waitForURL(`**/feed/${feedId}/curation`);
    await page.getByRole("heading", { level: 1, name: "Solar Weekly" }).waitFor();
    await page.getByText(`#${feedId}`).first().waitFor();

    const destinations = page.getByTestId("feed-destinations");
    await destinations.getByText("Curating from").waitFor();
    expect(await destinations.getByRole("link", { name: "Telegram" }).getAttribute("href")).toBe(
      "https://t.me/solar_e2e",
    );
    expect(await destinations.getByRole("link", { name: "RSS" }).getAttribute("href")).toBe(
      `${baseUrl}/rss/${feedId}/rss.xml`,
    );

    const { feed } = await storedFeed(feedId);
    const stream = feed?.config.outputs?.stream;
    expect(stream?.enabled).toBe(true);
    expect(stream?.transform?.map((step) => step.plugin)).toEqual([
      "@curate/object-transform",
      "@curate/ai-transform",
    ]);
    const [rss, telegram] = stream?.distribute ?? [];
    expect(rss.config).toEqual({
      serviceUrl: `${baseUrl}/rss`,
      feedConfig: expect.objectContaining({ title: "Solar Weekly", siteUrl: `${baseUrl}/feed/${feedId}` }),
    });
    expect(telegram).toEqual({
      plugin: "@curate/telegram",
      config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@solar_e2e" },
    });
    expect(feed?.config.moderation?.approvers).toEqual({ twitter: ["SolarAlice"] });
  });

  it("edits in form view, syncs with JSON view both ways and saves", async () => {
    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByRole("heading", { level: 1, name: "Edit Feed: Solar Weekly" }).waitFor();
    // Plugin names are suggested from the registry, of the kind each list needs.
    const suggestions = page.getByLabel("Distributor 1 plugin");
    const listId = await suggestions.getAttribute("list");
    await expect
      .poll(() =>
        page
          .locator(`datalist[id="${listId}"] option`)
          .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
      )
      .toContain("@curate/telegram");
    expect(
      await page
        .locator(`datalist[id="${listId}"] option`)
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).not.toContain("@curate/object-transform");

    await page.getByLabel("Feed Name").fill("Solar Weekly Plus");
    // The RSS distributor's title follows the feed's name, as the wizard made it.
    await expect
      .poll(
        async () =>
          JSON.parse(await page.getByLabel("Distributor 1 config (JSON)").inputValue()).feedConfig.title,
      )
      .toBe("Solar Weekly Plus");
    await page.getByLabel("Polling Interval (ms)").fill("500");
    await page.getByRole("button", { name: "Save Changes" }).click();
    // One rule, one message: the same words beside the field and in the summary, never two wordings.
    const pollingRule = page.getByText("Polling interval must be a whole number of at least 1000 ms", {
      exact: true,
    });
    await pollingRule.first().waitFor();
    expect(await pollingRule.count()).toBe(2);
    expect(await page.getByText(/Polling interval: Polling interval|must be at least 1000 ms/).count()).toBe(
      0,
    );
    await page.getByLabel("Polling Interval (ms)").fill("60000");
    await page.getByLabel("Twitter Approvers").fill("SolarAlice, bob,, ");
    await page.getByLabel("Enable Stream Output").uncheck();

    await page.getByRole("tab", { name: "JSON View" }).click();
    const json = page.getByLabel("Feed configuration (JSON)");
    const config = JSON.parse(await json.inputValue());
    expect(config).toMatchObject({
      name: "Solar Weekly Plus",
      pollingIntervalMs: 60000,
      moderation: { approvers: { twitter: ["SolarAlice", "bob"] } },
      outputs: { stream: { enabled: false } },
    });

    await json.fill("{ not json");
    await page.getByText(/^JSON Error: /).waitFor();
    await page.getByRole("tab", { name: "Form View" }).click();
    await toast("Invalid JSON").waitFor();
    await json.fill(
      JSON.stringify({ ...config, description: "Solar energy news, checked by engineers." }, null, 2),
    );
    expect(await page.getByText(/^JSON Error: /).count()).toBe(0);
    await page.getByRole("tab", { name: "Form View" }).click();
    await expect
      .poll(() => page.getByLabel("Description").inputValue())
      .toBe("Solar energy news, checked by engineers.");

    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast("Feed configuration updated successfully.").waitFor();
    const { feed } = await storedFeed(feedId);
    expect(feed?.name).toBe("Solar Weekly Plus");
    expect(feed?.config.outputs?.stream?.distribute?.[0]?.config).toMatchObject({
      feedConfig: { title: "Solar Weekly Plus" },
    });
    expect(feed?.config.pollingIntervalMs).toBe(60000);
    expect(feed?.config.description).toBe("Solar energy news, checked by engineers.");
    expect(feed?.config.outputs?.stream?.enabled).toBe(false);
  });

  it("uploads an image into the config and saves it", async () => {
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await toast("Please select an image file to upload.").waitFor();

    await page
      .getByLabel("Image file")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG_1X1 });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await toast("Image has been uploaded.").waitFor();
    await toast("Image URL has been updated in the JSON config.").waitFor();
    await page.getByRole("tab", { name: "JSON View" }).click();
    const image: string = JSON.parse(await page.getByLabel("Feed configuration (JSON)").inputValue()).image;
    expect(image).toMatch(/\/uploads\//);
    const served = await fetch(new URL(image, baseUrl));
    expect(served.status).toBe(200);

    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast("Feed configuration updated successfully.").waitFor();
    expect((await storedFeed(feedId)).feed?.config.image).toBe(image);
  });

  it("shows the set-up panel for a feed whose stream is off, then deletes the feed", async () => {
    await page.goto(`${baseUrl}/feed/${feedId}`);
    await page.getByRole("heading", { name: "This Feed isn't set up yet" }).waitFor();
    await page.getByRole("link", { name: "Continue Feed Setup" }).click();
    await page.waitForURL(`**/edit/feed/${feedId}`);

    await page.getByRole("button", { name: "Delete Feed" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Feed" });
    await dialog
      .getByText("Are you sure you want to delete this feed? This action cannot be undone.")
      .waitFor();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL("**/profile/my-feeds");
    await toast("Feed deleted successfully.").waitFor();
    expect((await storedFeed(feedId)).status).toBe(404);

    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByText("Feed not found.").waitFor();
    expect(pageErrors).toEqual([]);
  });
});
