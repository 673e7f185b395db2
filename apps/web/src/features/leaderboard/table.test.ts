import type { LeaderboardEntry } from "@curate/core";
import { describe, expect, it } from "vitest";
import {
  ariaSort,
  DEFAULT_SORT,
  expandableIds,
  filterRows,
  handlesOf,
  type LeaderboardRow,
  nextSort,
  type SortState,
  sortRows,
  toRows,
} from "./table";

function entry(
  curatorUsername: string,
  counts: { submissions: number; approvals: number },
  feeds: Record<string, number> = {},
): LeaderboardEntry {
  return {
    rank: 1,
    curatorId: `id-${curatorUsername}`,
    curatorUsername,
    submissionCount: counts.submissions,
    approvalCount: counts.approvals,
    rejectionCount: 0,
    feedSubmissions: Object.entries(feeds).map(([feedId, count]) => ({ feedId, count, totalInFeed: 50 })),
    userId: null,
    displayName: `@${curatorUsername}`,
    avatarUrl: null,
    score: counts.submissions,
  };
}

// In the server's order: submissions, then approvals.
const entries = [
  entry("zed", { submissions: 9, approvals: 3 }, { ai: 2, crypto: 7 }),
  entry("Alice", { submissions: 9, approvals: 1 }, { ai: 9 }),
  entry("bob", { submissions: 4, approvals: 4 }, { defi: 1, ai: 1, news: 1, crypto: 1 }),
  entry("carol", { submissions: 0, approvals: 0 }),
];
const rows = toRows(entries);
const feedNames = new Map([
  ["ai", "AI Daily"],
  ["crypto", "Crypto Digest"],
  ["defi", "DeFi Watch"],
  ["news", "Newsroom"],
]);

const usernames = (list: readonly LeaderboardRow[]) => list.map((row) => row.entry.curatorUsername);
const ranks = (list: readonly LeaderboardRow[]) => list.map((row) => row.rank);
const sortBy = (sort: SortState) => sortRows(rows, sort);

describe("toRows", () => {
  it("ranks by the server's order and derives the approval rate", () => {
    expect(ranks(rows)).toEqual([1, 2, 3, 4]);
    expect(rows.map((row) => row.approvalRate)).toEqual([33, 11, 100, 0]);
  });

  it("lists each curator's feeds with the most submissions first", () => {
    expect(rows[0].feeds.map((feed) => feed.feedId)).toEqual(["crypto", "ai"]);
    expect(rows[2].feeds.map((feed) => feed.feedId)).toEqual(["ai", "crypto", "defi", "news"]);
  });
});

describe("sortRows", () => {
  it("sorts handles from other networks by the handle shown, not their network's prefix", () => {
    const mixed = toRows([
      entry("mastodon:zoe@fosstodon.org", { submissions: 3, approvals: 1 }),
      entry("bluesky:yan.bsky.social", { submissions: 2, approvals: 1 }),
      entry("adam", { submissions: 1, approvals: 1 }),
    ]);
    expect(usernames(sortRows(mixed, { key: "username", direction: "ascending" }))).toEqual([
      "adam",
      "bluesky:yan.bsky.social",
      "mastodon:zoe@fosstodon.org",
    ]);
  });

  it("keeps the server's order by default", () => {
    expect(usernames(sortBy(DEFAULT_SORT))).toEqual(["zed", "Alice", "bob", "carol"]);
  });

  it("sorts by each column in both directions and keeps every row's rank", () => {
    expect(usernames(sortBy({ key: "rank", direction: "descending" }))).toEqual([
      "carol",
      "bob",
      "Alice",
      "zed",
    ]);
    expect(usernames(sortBy({ key: "username", direction: "ascending" }))).toEqual([
      "Alice",
      "bob",
      "carol",
      "zed",
    ]);
    expect(usernames(sortBy({ key: "approvalRate", direction: "descending" }))).toEqual([
      "bob",
      "zed",
      "Alice",
      "carol",
    ]);
    expect(usernames(sortBy({ key: "approvalRate", direction: "ascending" }))).toEqual([
      "carol",
      "Alice",
      "zed",
      "bob",
    ]);
    expect(usernames(sortBy({ key: "topFeeds", direction: "descending" }))).toEqual([
      "bob",
      "zed",
      "Alice",
      "carol",
    ]);

    const sorted = sortBy({ key: "username", direction: "descending" });
    expect(sorted.map((row) => [row.entry.curatorUsername, row.rank])).toEqual([
      ["zed", 1],
      ["carol", 4],
      ["bob", 3],
      ["Alice", 2],
    ]);
  });

  it("breaks ties by rank in either direction", () => {
    expect(usernames(sortBy({ key: "submissions", direction: "descending" }))).toEqual([
      "zed",
      "Alice",
      "bob",
      "carol",
    ]);
    expect(usernames(sortBy({ key: "submissions", direction: "ascending" }))).toEqual([
      "carol",
      "bob",
      "zed",
      "Alice",
    ]);
  });

  it("leaves its input untouched", () => {
    sortBy({ key: "username", direction: "descending" });
    expect(ranks(rows)).toEqual([1, 2, 3, 4]);
  });
});

describe("nextSort and ariaSort", () => {
  it("starts counts highest first, names and ranks from the top, and reverses on a second choice", () => {
    expect(nextSort(DEFAULT_SORT, "submissions")).toEqual({ key: "submissions", direction: "descending" });
    expect(nextSort(DEFAULT_SORT, "username")).toEqual({ key: "username", direction: "ascending" });
    expect(nextSort(DEFAULT_SORT, "rank")).toEqual({ key: "rank", direction: "descending" });
    expect(nextSort({ key: "submissions", direction: "descending" }, "submissions")).toEqual({
      key: "submissions",
      direction: "ascending",
    });
  });

  it("marks only the sorted column", () => {
    const sort: SortState = { key: "approvalRate", direction: "descending" };
    expect(ariaSort(sort, "approvalRate")).toBe("descending");
    expect(ariaSort(sort, "rank")).toBe("none");
    expect(ariaSort(DEFAULT_SORT, "rank")).toBe("ascending");
  });
});

describe("filterRows", () => {
  const search = (query: string) => usernames(filterRows(rows, query, feedNames));

  it("keeps every row for an empty query", () => {
    expect(search("  ")).toEqual(["zed", "Alice", "bob", "carol"]);
  });

  it("matches curator handles case-insensitively, with or without @", () => {
    expect(search("ALI")).toEqual(["Alice"]);
    expect(search("@bob")).toEqual(["bob"]);
  });

  it("matches any of a curator's feed ids or names, not only the ones shown collapsed", () => {
    expect(search("#crypto")).toEqual(["zed", "bob"]);
    expect(search("newsroom")).toEqual(["bob"]);
    expect(search("daily")).toEqual(["zed", "Alice", "bob"]);
  });

  it("keeps ranks, so a filtered and sorted table still shows each curator's place", () => {
    const found = sortRows(filterRows(rows, "crypto", feedNames), {
      key: "username",
      direction: "ascending",
    });
    expect(found.map((row) => [row.entry.curatorUsername, row.rank])).toEqual([
      ["bob", 3],
      ["zed", 1],
    ]);
  });

  it("finds nothing for an unknown term", () => {
    expect(search("nobody-here")).toEqual([]);
  });
});

describe("expandableIds", () => {
  it("lists the curators with more feeds than a collapsed row shows", () => {
    expect(expandableIds(rows)).toEqual(["id-bob"]);
  });
});

describe("linked handles", () => {
  const merged: LeaderboardEntry = {
    ...entry("bluesky:dana.bsky.social", { submissions: 12, approvals: 6 }),
    handles: ["bluesky:dana.bsky.social", "mastodon:dana@hachyderm.io", "dana_x"],
  };

  it("name the entry by its strongest handle, then the others once", () => {
    expect(handlesOf(merged)).toEqual(["bluesky:dana.bsky.social", "mastodon:dana@hachyderm.io", "dana_x"]);
    expect(handlesOf(entry("solo", { submissions: 1, approvals: 0 }))).toEqual(["solo"]);
  });

  it("find the entry by any of them", () => {
    const found = (query: string) => usernames(filterRows(toRows([merged, ...entries]), query, feedNames));
    expect(found("hachyderm")).toEqual(["bluesky:dana.bsky.social"]);
    expect(found("@dana_x")).toEqual(["bluesky:dana.bsky.social"]);
  });
});
