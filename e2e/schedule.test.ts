import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession } from "./support/browser.ts";
import {
  approveOnCuration,
  botHandleOf,
  createFeedAs,
  dismissToast,
  postOnTestPage,
  signInAsModerator,
  toastShown,
} from "./support/journeys.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const SHOTS = process.env.E2E_SCREENSHOT_DIR;

/** Screenshots at 1440 and 375 px when E2E_SCREENSHOT_DIR is set (for looking at the screens, not asserted). */
async function shoot(page: Page, name: string, focus?: Locator) {
  if (!SHOTS) return;
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The Scheduled tab's posts, top to bottom: the marker each row shows. */
const lineOrder = (items: Locator, markers: string[]) =>
  items.evaluateAll(
    (rows, all) => rows.map((row) => all.find((marker) => row.textContent?.includes(marker)) ?? "?"),
    markers,
  );

describe("the Scheduled view", () => {
  it("lists what a scheduled channel publishes when, and moves, publishes now and removes items", async () => {
    const { page, pageErrors } = await session.visit("/");
    await signInAsModerator(page);
    const feedId = `sched${Date.now().toString(36)}`;
    // The RSS channel publishes at 03:00 UTC only, so nothing this journey approves goes out by itself.
    expect(
      await createFeedAs(page, {
        id: feedId,
        name: "Scheduled Journey",
        description: "A feed whose channel keeps a schedule",
        outputs: {
          stream: {
            enabled: true,
            distribute: [
              {
                plugin: "@curate/rss",
                config: {},
                schedule: { mode: "slots", slots: ["03:00"], timezone: "UTC" },
              },
            ],
          },
        },
      }),
    ).toBe(201);

    const botHandle = await botHandleOf(page);
    const markers = [1, 2, 3].map((n) => `sched-${n}-${Date.now().toString(36)}`);
    for (const marker of markers) {
      await postOnTestPage(page, baseUrl, `!submit @${botHandle} #${feedId} ${marker}`);
      await approveOnCuration(page, baseUrl, feedId, marker);
      await dismissToast(page, "Submission successfully approved.");
    }

    await page.goto(`${baseUrl}/feed/${feedId}/scheduled`);
    const channel = page.getByTestId("scheduled-channel");
    await channel.getByText("Daily at 03:00 (UTC) · 3 items waiting").waitFor({ timeout: 60_000 });
    const items = channel.getByTestId("scheduled-item");
    await items.nth(2).waitFor();
    expect(await items.count()).toBe(3);
    const first = await lineOrder(items, markers);
    expect(new Set(first)).toEqual(new Set(markers));
    // One slot a day: each item a day after the one before, all at 03:00.
    const times = await items
      .locator("time")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime")));
    for (const time of times) expect(time).toMatch(/T03:00:00\.000Z$/);
    expect(new Set(times).size).toBe(3);
    await shoot(page, "scheduled-view", channel);

    // Move the last up: it takes the second place and the second slot.
    await items.nth(2).getByRole("button", { name: "Move item 3 up" }).click();
    await toastShown(page, "Moved");
    await expect.poll(() => lineOrder(items, markers)).toEqual([first[0], first[2], first[1]]);
    const movedTimes = await items
      .locator("time")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime")));
    expect(movedTimes).toEqual(times);

    // Publish now: it leaves the line and goes out; the others move up.
    await items.nth(0).getByRole("button", { name: "Publish now" }).click();
    await toastShown(page, "Publishing now");
    await channel.getByText("2 items waiting").waitFor({ timeout: 60_000 });
    await expect.poll(() => lineOrder(items, markers), { timeout: 60_000 }).toEqual([first[2], first[1]]);
    await expect
      .poll(
        () =>
          page.evaluate(async (id) => {
            const response = await fetch(`/rss/${id}/rss.xml`, { cache: "no-store" });
            return response.ok ? await response.text() : "";
          }, feedId),
        { timeout: 60_000 },
      )
      .toContain(first[0]);

    // Remove: confirmed in a dialog, then it is gone from the line.
    await items.nth(0).getByRole("button", { name: "Remove item 1 from the schedule" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove from the schedule?" });
    await dialog.getByRole("button", { name: "Remove", exact: true }).click();
    await toastShown(page, "Removed from the schedule");
    await channel.getByText("1 item waiting").waitFor();
    expect(await lineOrder(items, markers)).toEqual([first[1]]);
    await shoot(page, "scheduled-view-after", channel);

    // The editor shows the channel's schedule where its distributor is configured.
    await page.goto(`${baseUrl}/edit/feed/${feedId}`);
    const mode = page.getByLabel("Distributor 1 publishing schedule");
    await mode.waitFor();
    expect(await mode.inputValue()).toBe("slots");
    expect(await page.getByLabel("Distributor 1 slots (HH:MM)").inputValue()).toBe("03:00");
    await shoot(page, "schedule-editor", mode);

    // Changing the schedule re-plans what waits, and the save says so.
    await page.getByLabel("Distributor 1 slots (HH:MM)").fill("05:00, 17:00");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toastShown(page, "1 scheduled item was re-planned.");
    await page.goto(`${baseUrl}/feed/${feedId}/scheduled`);
    await channel.getByText("Daily at 05:00, 17:00 (UTC) · 1 item waiting").waitFor();
    expect(await items.locator("time").getAttribute("datetime")).toMatch(/T(05|17):00:00\.000Z$/);
    expect(pageErrors).toEqual([]);
  });
});
