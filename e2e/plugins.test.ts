import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithDevWallet } from "./support/auth.ts";
import { launchBrowser, openPage } from "./support/browser.ts";
import { dismissToast } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let pageErrors: Error[];
const suffix = Date.now().toString(36);
const pluginName = `@e2e/shout-${suffix}`;
const repoUrl = `https://github.com/e2e/shout-${suffix}`;

/** A toast with this text, visible or stacked behind newer ones (sonner shows at most three). */
const toast = (text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ state: "attached" });

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page, pageErrors } = await openPage(browser.context, `${baseUrl}/plugin`));
});

afterAll(async () => {
  await browser?.close();
});

// One journey in order: register with mistakes, fix them, edit, delete.
describe("plugin registry", () => {
  it("lists the built-ins, read-only", async () => {
    const table = page.getByRole("table", { name: "Plugins" });
    // Exactly the RSS distributor's row, not @curate/rss-source's.
    const rss = table
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: "View @curate/rss", exact: true }) });
    await rss.waitFor();
    expect(await rss.getByText("Built-in").count()).toBe(1);
    await rss.getByRole("link", { name: "View @curate/rss" }).click();
    await page.getByText("This is a built-in plugin").waitFor();
    expect(await page.getByRole("button", { name: "Save Changes" }).count()).toBe(0);
    expect(await page.getByLabel("Schema Definition (optional)").inputValue()).toContain('"type": "object"');

    await page.goto(`${baseUrl}/plugin/999999`);
    await page.getByText("Plugin not found.").waitFor();
  });

  it("shows every validation message of the create form, then registers once fixed", async () => {
    await page.goto(`${baseUrl}/plugin`);
    await signInWithDevWallet(page);
    await page.getByRole("link", { name: "Create New Plugin" }).click();
    await page.waitForURL("**/create/plugin");

    await page.getByLabel("Repository URL").fill("github dot com");
    await page.getByLabel("Entry Point URL").fill("remoteEntry.js");
    await page.getByLabel("Schema Definition (optional)").fill("{ not json");
    await page.getByRole("button", { name: "Create Plugin" }).click();
    for (const message of [
      "Plugin name is required",
      "Must be a valid repository URL (e.g., GitHub, GitLab)",
      "Plugin type is required",
      "Entry point must be a valid URL (e.g., https://example.com/remoteEntry.js)",
      "Invalid JSON for Schema Definition",
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(new URL(page.url()).pathname).toBe("/create/plugin");

    // A built-in's short name is refused before sending, with the rule's message.
    await page.getByLabel("Plugin Name").fill("webhook");
    await page.getByRole("button", { name: "Create Plugin" }).click();
    await page
      .getByText('"webhook" is the built-in plugin @curate/webhook', { exact: false })
      .first()
      .waitFor();

    await page.getByLabel("Plugin Name").fill(pluginName);
    await page.getByLabel("Repository URL").fill(repoUrl);
    await page.getByLabel("Plugin Type").selectOption("transformer");
    await page.getByLabel("Schema Definition (optional)").fill('{"type":"object"}');
    // This server runs code only from plugins.e2e.test (PLUGIN_ALLOWED_HOSTS): the form says so before saving, and
    // the server refuses the entry point at its field.
    await page.getByLabel("Entry Point URL").fill("https://elsewhere.e2e.test/shout/v1.js");
    await page
      .getByTestId("entry-point-warning")
      .getByText("host not allowed: elsewhere.e2e.test", { exact: false })
      .waitFor();
    await page.getByRole("button", { name: "Create Plugin" }).click();
    await toast("Failed to create plugin: API request failed: 400 Entry point refused");
    await dismissToast(page, "Failed to create plugin");
    await page
      .getByText(
        "This server runs plugins only from plugins.e2e.test (PLUGIN_ALLOWED_HOSTS): host not allowed: elsewhere.e2e.test.",
        { exact: true },
      )
      .waitFor();
    await page.getByLabel("Entry Point URL").fill("https://plugins.e2e.test/shout/v1.js");
    expect(await page.getByTestId("entry-point-warning").count()).toBe(0);
    await page.getByRole("button", { name: "Create Plugin" }).click();
    await toast(`Plugin "${pluginName}" created successfully!`);
    await page.waitForURL("**/plugin");
    await page
      .getByRole("row")
      .filter({ hasText: pluginName })
      .getByRole("link", { name: `Edit ${pluginName}` })
      .waitFor();
  });

  it("refuses a second plugin from the same repository with the server's reason", async () => {
    await page.goto(`${baseUrl}/create/plugin`);
    await page.getByLabel("Plugin Name").fill(`${pluginName}-copy`);
    await page.getByLabel("Repository URL").fill(repoUrl);
    await page.getByLabel("Plugin Type").selectOption("distributor");
    await page.getByLabel("Entry Point URL").fill("https://plugins.e2e.test/shout/copy.js");
    await page.getByRole("button", { name: "Create Plugin" }).click();
    await toast("Failed to create plugin: API request failed: 409");
    expect(new URL(page.url()).pathname).toBe("/create/plugin");
  });

  it("edits the entry point: name and repository read-only, Save Changes only after a change", async () => {
    await page.goto(`${baseUrl}/plugin`);
    await page.getByRole("link", { name: `Edit ${pluginName}` }).click();
    const save = page.getByRole("button", { name: "Save Changes" });
    await save.waitFor();
    expect(await page.getByLabel("Plugin Name").getAttribute("readonly")).not.toBeNull();
    expect(await page.getByLabel("Repository URL").getAttribute("readonly")).not.toBeNull();
    expect(await save.isDisabled()).toBe(true);

    const entry = page.getByLabel("Entry Point URL");
    await entry.fill("not a url");
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await page.getByText("Entry point must be a valid URL", { exact: true }).waitFor();
    await entry.fill("https://plugins.e2e.test/shout/v1.js");
    expect(await save.isDisabled()).toBe(true);
    await entry.fill("https://plugins.e2e.test/shout/v2.js");
    await save.click();
    await toast("Plugin updated successfully!");
    await page.waitForURL("**/plugin");

    const stored = await page.evaluate(async (name) => {
      const body = await (await fetch(`/api/plugins?name=${encodeURIComponent(name)}`)).json();
      return body.data.items[0];
    }, pluginName);
    expect(stored).toMatchObject({ entryPoint: "https://plugins.e2e.test/shout/v2.js" });
  });

  it("deletes after confirmation and returns to the list", async () => {
    await page.getByRole("link", { name: `Edit ${pluginName}` }).click();
    await page.getByRole("button", { name: "Delete Plugin" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Plugin" });
    await dialog.getByText("Are you sure you want to delete this plugin?").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(new URL(page.url()).pathname).toMatch(/^\/plugin\/\d+$/);

    await page.getByRole("button", { name: "Delete Plugin" }).click();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await toast("Plugin deleted successfully!");
    await page.waitForURL("**/plugin");
    await page
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: "View @curate/rss", exact: true }) })
      .waitFor();
    await expect.poll(() => page.getByRole("row").filter({ hasText: pluginName }).count()).toBe(0);
    expect(
      (await fetch(`${baseUrl}/api/plugins?name=${encodeURIComponent(pluginName)}`).then((r) => r.json()))
        .data.items,
    ).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
