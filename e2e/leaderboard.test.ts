import type { LeaderboardEntry } from "@curate/core";
import { splitHandleKey } from "@curate/core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSession, PHONE, type Viewport } from "./support/browser.ts";
import { baseUrl } from "./support/stack.ts";

const session = browserSession(baseUrl);
const visit = (pathAndQuery: string, viewport?: Viewport) => session.visit(pathAndQuery, viewport);

/** What the server ranks, straight from the API, to compare the page against. */
async function leaderboard(query: Record<string, string> = {}): Promise<LeaderboardEntry[]> {
  const response = await fetch(`${baseUrl}/api/leaderboard?${new URLSearchParams(query)}`);
  expect(response.status).toBe(200);
  return (await response.json()).data;
}

async function feeds(): Promise<Array<{ id: string; name: string }>> {
  return (await (await fetch(`${baseUrl}/api/feeds`)).json()).data;
}

const rows = (page: Page) => page.getByTestId("leaderboard-row");
const header = (page: Page, name: string) => page.getByRole("columnheader", { name, exact: true });
const COLUMNS = ["Rank", "Username", "Approval Rate", "Score", "Submissions", "Top Feeds"] as const;

interface ShownRow {
  rank: number;
  username: string;
  approvalRate: number;
  submissions: number;
  feedShares: number;
}

async function shownRows(page: Page): Promise<ShownRow[]> {
  const headings = await page
    .getByRole("columnheader")
    .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ""));
  const columnOf = (name: string) => headings.findIndex((text) => text.startsWith(name));
  const at = { approvalRate: columnOf("Approval Rate"), submissions: columnOf("Submissions") };
  expect(
    Object.values(at).every((index) => index >= 0),
    `columns: ${headings.join(" | ")}`,
  ).toBe(true);
  return page.$$eval(
    "[data-testid=leaderboard-row]",
    (elements, columns) =>
      elements.map((row) => {
        const cell = (index: number) => row.querySelectorAll("td")[index]?.textContent ?? "";
        return {
          rank: Number(row.getAttribute("data-rank")),
          // The curator's key: a bare X handle, or `<platform>:<handle>` from another network.
          username: row.getAttribute("data-curator") ?? "",
          approvalRate: Number(cell(columns.approvalRate).match(/(\d+)%/)?.[1]),
          submissions: Number(cell(columns.submissions).replace(/\D/g, "")),
          feedShares: row.querySelectorAll("[data-testid=feed-share]").length,
        };
      }),
    at,
  );
}

async function ariaSorts(page: Page): Promise<Record<string, string | null>> {
  const entries = await Promise.all(
    COLUMNS.map(async (name) => [name, await header(page, name).getAttribute("aria-sort")] as const),
  );
  return Object.fromEntries(entries);
}

const rankOf = (entries: readonly LeaderboardEntry[]) =>
  new Map(entries.map((entry, index) => [entry.curatorUsername, index + 1]));

const compareNames = new Intl.Collator(undefined, { sensitivity: "base", numeric: true }).compare;

function isOrdered<T>(values: readonly T[], compare: (a: T, b: T) => number): boolean {
  return values.every((value, index) => index === 0 || compare(values[index - 1], value) <= 0);
}

describe("Leaderboard", () => {
  it("shows the curators in the server's order with ranks, stars, rates and controls", async () => {
    const entries = await leaderboard();
    expect(entries.length).toBeGreaterThan(3);
    const { page, pageErrors } = await visit("/leaderboard");

    await page.getByRole("heading", { level: 1, name: "Leaderboard" }).waitFor();
    await rows(page).first().waitFor();
    expect(await page.getByPlaceholder("Search by curator or feed").count()).toBe(1);
    expect(await page.getByLabel("Feed", { exact: true }).inputValue()).toBe("all feeds");
    expect(await page.getByLabel("Time", { exact: true }).inputValue()).toBe("all");
    expect(await page.getByLabel("Time", { exact: true }).locator("option").allTextContents()).toEqual([
      "All Time",
      "This Month",
      "This Week",
      "Today",
    ]);

    const shown = await shownRows(page);
    expect(shown.map((row) => row.username)).toEqual(entries.map((entry) => entry.curatorUsername));
    expect(shown.map((row) => row.rank)).toEqual(entries.map((_, index) => index + 1));
    expect(shown.map((row) => row.submissions)).toEqual(entries.map((entry) => entry.submissionCount));
    expect(shown.map((row) => row.approvalRate)).toEqual(
      entries.map((entry) =>
        entry.submissionCount === 0 ? 0 : Math.round((entry.approvalCount / entry.submissionCount) * 100),
      ),
    );

    for (const [index, medal] of ["gold", "silver", "bronze"].entries()) {
      const rank = index + 1;
      expect(await rows(page).nth(index).locator(`[title="Rank ${rank} (${medal})"]`).count()).toBe(1);
    }
    // From rank 4 on a rank is a plain number: no medal (a row may still carry a network's icon).
    expect(await rows(page).nth(3).locator('[title="Rank 4"] svg').count()).toBe(0);

    const firstHandle = entries[0].curatorUsername;
    expect(await page.getByRole("link", { name: `@${firstHandle}`, exact: true }).getAttribute("href")).toBe(
      `https://x.com/${firstHandle}`,
    );
    expect(await ariaSorts(page)).toEqual({
      Rank: "ascending",
      Username: "none",
      "Approval Rate": "none",
      Score: "none",
      Submissions: "none",
      "Top Feeds": "none",
    });
    expect(pageErrors).toEqual([]);
  });

  it("sorts by each column both ways, with aria-sort, keeping every curator's rank", async () => {
    const entries = await leaderboard();
    const ranks = rankOf(entries);
    const feedCounts = new Map(entries.map((entry) => [entry.curatorUsername, entry.feedSubmissions.length]));
    const scores = new Map(entries.map((entry) => [entry.curatorUsername, entry.reputation?.score ?? 0]));
    const { page, pageErrors } = await visit("/leaderboard");
    await rows(page).first().waitFor();

    const columns: Array<{
      name: (typeof COLUMNS)[number];
      first: "ascending" | "descending";
      compare: (a: ShownRow, b: ShownRow) => number;
    }> = [
      {
        name: "Username",
        first: "ascending",
        // By the handle as shown: `bluesky:zoe.bsky.social` sorts under z.
        compare: (a, b) => compareNames(splitHandleKey(a.username).handle, splitHandleKey(b.username).handle),
      },
      { name: "Approval Rate", first: "descending", compare: (a, b) => a.approvalRate - b.approvalRate },
      {
        name: "Score",
        first: "descending",
        compare: (a, b) => (scores.get(a.username) ?? 0) - (scores.get(b.username) ?? 0),
      },
      { name: "Submissions", first: "descending", compare: (a, b) => a.submissions - b.submissions },
      {
        name: "Top Feeds",
        first: "descending",
        compare: (a, b) => (feedCounts.get(a.username) ?? 0) - (feedCounts.get(b.username) ?? 0),
      },
      { name: "Rank", first: "ascending", compare: (a, b) => a.rank - b.rank },
    ];

    for (const column of columns) {
      for (const direction of [column.first, column.first === "ascending" ? "descending" : "ascending"]) {
        await header(page, column.name).getByRole("button").click();
        await expect.poll(() => header(page, column.name).getAttribute("aria-sort")).toBe(direction);
        const sorts = await ariaSorts(page);
        for (const other of COLUMNS.filter((name) => name !== column.name)) expect(sorts[other]).toBe("none");

        const shown = await shownRows(page);
        const sign = direction === "ascending" ? 1 : -1;
        expect(
          isOrdered(shown, (a, b) => sign * column.compare(a, b)),
          `${column.name} ${direction}`,
        ).toBe(true);
        expect(shown.length).toBe(entries.length);
        for (const row of shown) expect(row.rank).toBe(ranks.get(row.username));
      }
    }
    expect(pageErrors).toEqual([]);
  });

  it("sorts from the keyboard", async () => {
    const { page } = await visit("/leaderboard");
    await rows(page).first().waitFor();

    await header(page, "Submissions").getByRole("button").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => header(page, "Submissions").getAttribute("aria-sort")).toBe("descending");
    await page.keyboard.press("Space");
    await expect.poll(() => header(page, "Submissions").getAttribute("aria-sort")).toBe("ascending");
    expect(await header(page, "Rank").getAttribute("aria-sort")).toBe("none");
  });

  it("searches by curator handle and by feed, keeping ranks, and says when nothing matches", async () => {
    const entries = await leaderboard();
    const ranks = rankOf(entries);
    const feedList = await feeds();
    const { page, pageErrors } = await visit("/leaderboard");
    await rows(page).first().waitFor();
    const search = page.getByPlaceholder("Search by curator or feed");

    const target = entries[Math.min(5, entries.length - 1)].curatorUsername;
    // People search for the handle as the page shows it, whatever its network.
    const typed = splitHandleKey(target).handle;
    await search.fill(typed);
    await expect.poll(async () => (await shownRows(page)).map((row) => row.username)).toContain(target);
    const byHandle = await shownRows(page);
    expect(byHandle.length).toBeLessThan(entries.length);
    for (const row of byHandle) {
      expect(row.username.toLowerCase()).toContain(typed.toLowerCase());
      expect(row.rank).toBe(ranks.get(row.username));
    }

    const feed = feedList.find((candidate) =>
      entries.some((entry) => entry.feedSubmissions.some((share) => share.feedId === candidate.id)),
    );
    expect(feed).toBeDefined();
    // The page matches handles and every feed id or name of a curator, so the expectation does the same.
    const needle = (feed?.name ?? "").toLowerCase();
    const names = new Map(feedList.map((candidate) => [candidate.id, candidate.name.toLowerCase()]));
    const expected = entries
      .filter(
        (entry) =>
          entry.curatorUsername.toLowerCase().includes(needle) ||
          entry.feedSubmissions.some(
            (share) => share.feedId.includes(needle) || (names.get(share.feedId) ?? "").includes(needle),
          ),
      )
      .map((entry) => entry.curatorUsername);
    expect(expected.length).toBeGreaterThan(0);
    await search.fill(feed?.name ?? "");
    await expect.poll(async () => (await shownRows(page)).map((row) => row.username)).toEqual(expected);

    await search.fill("zz-no-such-curator-or-feed");
    await page.getByText("No matching results found.").waitFor();
    expect(await rows(page).count()).toBe(0);

    await search.fill("");
    await expect.poll(() => rows(page).count()).toBe(entries.length);
    expect(pageErrors).toEqual([]);
  });

  it("switches feed and time range through the address", async () => {
    const feedList = await feeds();
    const { page, pageErrors } = await visit("/leaderboard");
    await rows(page).first().waitFor();

    // The feed with the most curators makes a clearly different table from the all-feeds one.
    const perFeed = await Promise.all(
      feedList.map(async (feed) => ({ feed, entries: await leaderboard({ feedId: feed.id }) })),
    );
    const { feed, entries: feedEntries } = perFeed.sort((a, b) => b.entries.length - a.entries.length)[0];
    expect(feedEntries.length).toBeGreaterThan(0);

    await page.getByLabel("Feed", { exact: true }).selectOption(feed.id);
    await page.waitForURL((url) => url.searchParams.get("feed") === feed.id);
    await expect
      .poll(async () => (await shownRows(page)).map((row) => [row.username, row.submissions]))
      .toEqual(feedEntries.map((entry) => [entry.curatorUsername, entry.submissionCount]));
    const shares = await page.getByTestId("feed-share").allTextContents();
    expect(shares.every((text) => text.includes(`#${feed.id}`))).toBe(true);

    for (const timeframe of ["today", "week", "month"] as const) {
      const expected = await leaderboard({ feedId: feed.id, timeRange: timeframe });
      await page.getByLabel("Time", { exact: true }).selectOption(timeframe);
      await page.waitForURL(
        (url) => url.searchParams.get("timeframe") === timeframe && url.searchParams.get("feed") === feed.id,
      );
      expect(await page.getByLabel("Time", { exact: true }).inputValue()).toBe(timeframe);
      if (expected.length === 0) {
        await page.getByText("No curator data available.").waitFor();
      } else {
        await expect
          .poll(async () => (await shownRows(page)).map((row) => [row.username, row.submissions]))
          .toEqual(expected.map((entry) => [entry.curatorUsername, entry.submissionCount]));
      }
    }

    await page.getByLabel("Feed", { exact: true }).selectOption("all feeds");
    await page.getByLabel("Time", { exact: true }).selectOption("all");
    await page.waitForURL((url) => !url.searchParams.has("feed") && !url.searchParams.has("timeframe"));
    const all = await leaderboard();
    await expect.poll(() => rows(page).count()).toBe(all.length);
    expect(pageErrors).toEqual([]);
  });

  it("expands and collapses the per-feed rows, one at a time or all together", async () => {
    const entries = await leaderboard();
    const feedCounts = entries.map((entry) => entry.feedSubmissions.length);
    const collapsed = feedCounts.map((count) => Math.min(count, 2));
    const { page, pageErrors } = await visit("/leaderboard");
    await rows(page).first().waitFor();

    const index = feedCounts.findIndex((count) => count > 2);
    expect(index).toBeGreaterThanOrEqual(0);
    const row = rows(page).nth(index);
    const shares = row.getByTestId("feed-share");
    expect(await shares.count()).toBe(2);

    const toggle = row.getByRole("button", { name: /^Show all \d+ feeds for @/ });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await expect.poll(() => shares.count()).toBe(feedCounts[index]);
    const lessToggle = row.getByRole("button", { name: /^Show fewer feeds for @/ });
    expect(await lessToggle.getAttribute("aria-expanded")).toBe("true");
    await lessToggle.click();
    await expect.poll(() => shares.count()).toBe(2);

    await page.getByRole("button", { name: "Expand All" }).click();
    await expect
      .poll(async () => (await shownRows(page)).map((shown) => shown.feedShares))
      .toEqual(feedCounts);
    await page.getByRole("button", { name: "Collapse All" }).click();
    await expect
      .poll(async () => (await shownRows(page)).map((shown) => shown.feedShares))
      .toEqual(collapsed);
    expect(pageErrors).toEqual([]);
  });

  it("falls back to all feeds and all time for unusable parameters, without an error page", async () => {
    const queries: URLSearchParams[] = [];
    const page = await session.newPage();
    const pageErrors: Error[] = [];
    page.on("pageerror", (error) => pageErrors.push(error));
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/leaderboard") queries.push(url.searchParams);
    });

    await page.goto(`${baseUrl}/leaderboard?timeframe=bogus&feed=nope`);
    await rows(page).first().waitFor();

    expect(await page.getByLabel("Feed", { exact: true }).inputValue()).toBe("all feeds");
    expect(await page.getByLabel("Time", { exact: true }).inputValue()).toBe("all");
    // The first answer may come embedded in the server-rendered page; whatever the browser asks for is all/all.
    for (const query of queries) {
      expect(query.get("timeRange")).toBe("all");
      expect(query.has("feedId")).toBe(false);
    }
    expect(await rows(page).count()).toBe((await leaderboard()).length);
    expect(await page.getByText("Something went wrong").count()).toBe(0);
    expect(await page.getByText(/Error loading leaderboard/).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe("Leaderboard on a phone", () => {
  it("shows readable rows instead of a table to scroll sideways, and never widens the page", async () => {
    const { page, pageErrors } = await visit("/leaderboard", PHONE);
    const cards = page.getByTestId("leaderboard-card");
    await cards.first().waitFor();
    expect(await cards.count()).toBe((await leaderboard()).length);
    expect(await page.getByTestId("leaderboard-table").isVisible()).toBe(false);
    const first = cards.first();
    expect(await first.getAttribute("data-rank")).toBe("1");
    const text = (await first.textContent()) ?? "";
    for (const label of ["Approval Rate", "Submissions", "Top Feeds"]) expect(text).toContain(label);
    expect(text).toMatch(/@\w+/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(pageErrors).toEqual([]);
  });
});
