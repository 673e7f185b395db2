import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import { dismissToast, signInAsModerator, toastShown } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

describe("config history on the edit page", () => {
  it("keeps each save as a version with its diff, and restores the first as a new save", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `hist${Date.now().toString(36)}`;
    await page.evaluate(async (id) => {
      const created = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id, name: "History Journey", description: "Where it started" }),
      });
      if (created.status !== 201) throw new Error(`feed: ${created.status}`);
    }, feedId);

    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    const versions = page.getByTestId("config-version");
    await expect.poll(() => versions.count()).toBe(1);

    await page.getByLabel("Feed Name").fill("History Journey, renamed");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toastShown(page, "Feed configuration updated successfully.");
    await expect.poll(() => versions.count()).toBe(2);
    // The toast sits over the bottom-right Save button, and stays while the pointer rests on it.
    await dismissToast(page, "Feed configuration updated successfully.");

    await page.getByLabel("Description").fill("Where it went next");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => versions.count()).toBe(3);

    // Newest first, each with what changed.
    expect(await versions.nth(0).textContent()).toContain("Version 3");
    expect(await versions.nth(0).textContent()).toContain("Current");
    await versions
      .nth(0)
      .getByRole("button", { name: /^\d+ changes?$/ })
      .click();
    expect(await versions.nth(0).textContent()).toContain(
      '~ description"Where it started" → "Where it went next"',
    );
    await versions
      .nth(1)
      .getByRole("button", { name: /^\d+ changes?$/ })
      .click();
    expect(await versions.nth(1).textContent()).toContain(
      '~ name"History Journey" → "History Journey, renamed"',
    );
    expect(await versions.nth(2).textContent()).toContain("Created");
    await page.getByTestId("config-history").screenshot({ path: "/tmp/bulkall-history-1440.png" });

    // Restore the first: a new save, labelled, and the editor starts from it.
    await versions.nth(2).getByRole("button", { name: "Restore" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await toastShown(page, "Version 1 restored as a new version.");
    await expect.poll(() => versions.count()).toBe(4);
    expect(await versions.nth(0).textContent()).toContain("Restored from version 1");
    await expect.poll(() => page.getByLabel("Feed Name").inputValue()).toBe("History Journey");
    expect(await page.getByLabel("Description").inputValue()).toBe("Where it started");
    expect(await page.getByTestId("unsaved-marker").count()).toBe(0);

    const stored = await page.evaluate(
      async (id) => (await (await fetch(`/api/feeds/${id}`)).json()).data,
      feedId,
    );
    expect(stored).toMatchObject({ name: "History Journey", description: "Where it started" });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByTestId("config-history").screenshot({ path: "/tmp/bulkall-history-375.png" });
    expect(pageErrors).toEqual([]);
  });
});
