import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import { botHandleOf, postOnTestPage, signInAsModerator, toastShown } from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);

describe("recaps", () => {
  it("a moderator adds a weekly recap on the edit page, saves it, runs it now and sees the run", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `recap${Date.now().toString(36)}`;
    const created = await page.evaluate(async (id) => {
      const response = await fetch("/api/feeds", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id,
          name: "Recap Journey",
          description: "A feed with a weekly digest",
          outputs: { stream: { enabled: false } },
        }),
      });
      return response.status;
    }, feedId);
    expect(created).toBe(201);

    // One approved post for the digest.
    const botHandle = await botHandleOf(page);
    const marker = `recap-item-${Date.now()}`;
    await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker}`);
    await page.goto(`${baseUrl}/feed/${feedId}/curation`);
    const card = page.getByTestId("submission-card").filter({ hasText: marker });
    await card.getByRole("button", { name: "Approve" }).click();
    await toastShown(page, "Submission successfully approved.");

    // The edit page: add a recap, read its schedule in words and its next runs.
    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    await page.getByRole("button", { name: "Add Recap" }).click();
    const recap = page.getByRole("group", { name: "Recap 1" });
    const preview = recap.getByTestId("schedule-preview");
    await preview.getByText("At 09:00, only on Monday").waitFor();
    expect(await preview.locator("li").count()).toBe(3);

    await recap.getByLabel("Schedule (cron)").fill("every friday");
    await preview.getByText(/^Not a valid cron schedule/).waitFor();
    // Save stops on it and names the field.
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("The configuration has problems:").waitFor();
    expect(await recap.getByText(/^Not a valid cron schedule/).count()).toBe(2);
    await recap.getByLabel("Schedule (cron)").fill("0 18 * * 5");
    await preview.getByText("At 18:00, only on Friday").waitFor();
    await recap.getByLabel("Timezone").selectOption("Europe/Berlin");
    const runs = await preview.locator("li").allTextContents();
    expect(runs).toHaveLength(3);
    for (const run of runs) expect(run).toMatch(/^Fri, .* 18:00 \(Europe\/Berlin\)$/);
    await recap.getByLabel("Name", { exact: true }).fill("Friday digest");

    await recap.getByRole("button", { name: "Add Item transform" }).click();
    await recap.getByLabel("Recap 1 Item transform 1 plugin").fill("@curate/simple-transform");
    // A config field commits when it loses focus (and then shows its JSON pretty-printed, which moves what is below).
    const commit = async (label: string, value: string) => {
      await recap.getByLabel(label).fill(value);
      await recap.getByLabel(label).press("Tab");
    };
    await commit("Recap 1 Item transform 1 config (JSON)", '{ "template": "- {{content}}" }');
    await recap.getByRole("button", { name: "Add Batch transform" }).click();
    await recap.getByLabel("Recap 1 Batch transform 1 plugin").fill("@curate/object-transform");
    await commit(
      "Recap 1 Batch transform 1 config (JSON)",
      JSON.stringify({
        mappings: {
          title: "{{recapName}}: {{count}} posts",
          link: "https://curate.example/digests",
          description: '{{items | join:"\n"}}',
        },
      }),
    );
    await recap.getByRole("button", { name: "Add Distributor" }).click();
    await recap.getByLabel("Recap 1 Distributor 1 plugin").fill("@curate/rss");
    await commit("Recap 1 Distributor 1 config (JSON)", "{}");

    // The JSON view holds what the form wrote.
    await page.getByRole("tab", { name: "JSON View" }).click();
    const config = JSON.parse(await page.getByLabel("Feed configuration (JSON)").inputValue());
    expect(config.outputs.recap).toMatchObject([
      {
        id: "weekly",
        name: "Friday digest",
        enabled: true,
        schedule: "0 18 * * 5",
        timezone: "Europe/Berlin",
        transform: [{ plugin: "@curate/simple-transform" }],
        batchTransform: [{ plugin: "@curate/object-transform" }],
        distribute: [{ plugin: "@curate/rss", config: {} }],
      },
    ]);
    await page.getByRole("tab", { name: "Form View" }).click();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toastShown(page, "Feed configuration updated successfully.");

    // The processing tab: Run now, then the run completes and its steps show the batch stage.
    await page.goto(`${baseUrl}/feed/${feedId}/processing`);
    const recaps = page.getByTestId("recaps");
    const recapCard = recaps.getByTestId("recap").filter({ hasText: "Friday digest" });
    await recapCard.getByText("At 18:00, only on Friday · Europe/Berlin").waitFor();
    await recapCard.getByRole("button", { name: "Run now: Friday digest" }).click();
    await toastShown(page, "Recap run started.");
    const run = recaps.getByTestId("recap-run").first();
    await run.waitFor();
    await recaps.locator('[data-testid="recap-run"][data-status="completed"]').waitFor({ timeout: 60_000 });
    expect(await run.getByTestId("job-kind").textContent()).toBe("Recap");
    await run.getByRole("button", { name: "View Steps" }).click();
    const steps = page.getByTestId("processing-steps");
    await steps.locator('[data-testid="processing-step"]').nth(2).waitFor();
    expect(
      await steps
        .locator('[data-testid="processing-step"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-status"))),
    ).toEqual(["success", "success", "success"]);
    await steps.getByRole("cell", { name: "Batch", exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
