// @vitest-environment jsdom
import type { LeaderboardEntry } from "@curate/core";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SORT, toRows } from "#web/features/leaderboard/table";
import { LeaderboardTable, LeaderboardTableSkeleton } from "./LeaderboardTable";

afterEach(cleanup);

const entry = (curatorUsername: string, handles?: string[]): LeaderboardEntry => ({
  rank: 1,
  curatorId: curatorUsername,
  curatorUsername,
  handles,
  submissionCount: 4,
  approvalCount: 2,
  rejectionCount: 1,
  feedSubmissions: [{ feedId: "ai", count: 4, totalInFeed: 9 }],
  userId: null,
  displayName: `@${curatorUsername}`,
  avatarUrl: null,
  score: 4,
});

async function renderTable(entries: LeaderboardEntry[]) {
  const table = () => (
    <LeaderboardTable
      rows={toRows(entries)}
      sort={DEFAULT_SORT}
      onSort={() => undefined}
      expanded={new Set()}
      onToggleExpanded={() => undefined}
      feedNames={new Map()}
    />
  );
  const router = createRouter({
    routeTree: createRootRoute({ component: table }),
    history: createMemoryHistory(),
  });
  render(<RouterProvider router={router} />);
  return screen.findByTestId("leaderboard-table");
}

describe("LeaderboardTable", () => {
  it("shows each curator on their network, with the handles they linked to one account", async () => {
    const table = await renderTable([
      entry("bluesky:dana.bsky.social", ["bluesky:dana.bsky.social", "mastodon:dana@hachyderm.io"]),
      entry("quietalpha"),
    ]);
    const [dana, quiet] = within(table).getAllByTestId("leaderboard-row");
    expect(within(dana).getByRole("link", { name: "Bluesky @dana.bsky.social" }).getAttribute("href")).toBe(
      "https://bsky.app/profile/dana.bsky.social",
    );
    const linked = within(dana).getByTestId("linked-handles");
    expect(
      within(linked).getByRole("link", { name: "Mastodon @dana@hachyderm.io" }).getAttribute("href"),
    ).toBe("https://hachyderm.io/@dana");
    expect(within(quiet).getByRole("link", { name: "@quietalpha" }).getAttribute("href")).toBe(
      "https://x.com/quietalpha",
    );
    expect(within(quiet).queryByTestId("linked-handles")).toBeNull();
  });

  it("shows an account's profile image beside its handle, and initials where there is none", async () => {
    const image = `/uploads/${"c".repeat(64)}.png`;
    const table = await renderTable([{ ...entry("sam_reads"), avatarUrl: image }, entry("quietalpha")]);
    const [sam, quiet] = within(table).getAllByTestId("leaderboard-row");
    expect(sam.querySelector("img")?.getAttribute("src")).toBe(image);
    expect(quiet.querySelector("img")).toBeNull();
  });
});

describe("LeaderboardTableSkeleton", () => {
  it("has a cell under every column, so the header keeps its widths when the rows arrive", () => {
    render(<LeaderboardTableSkeleton />);
    const columns = screen.getAllByRole("columnheader").length;
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(within(row).getAllByRole("cell")).toHaveLength(columns);
  });
});
