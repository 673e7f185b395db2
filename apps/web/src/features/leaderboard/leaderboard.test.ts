import type { LeaderboardEntry } from "@curate/core";
import { describe, expect, it } from "vitest";
import { topCurators } from "./api";
import { ALL_FEEDS, leaderboardSearchSchema, resolveLeaderboardSearch } from "./search";

function entry(
  curatorUsername: string,
  submissionCount: number,
  feeds: Record<string, number> = {},
): LeaderboardEntry {
  return {
    curatorId: curatorUsername,
    curatorUsername,
    submissionCount,
    approvalCount: 0,
    rejectionCount: 0,
    feedSubmissions: Object.entries(feeds).map(([feedId, count]) => ({ feedId, count, totalInFeed: count })),
  };
}

describe("topCurators", () => {
  const entries = [
    entry("a", 3, { ai: 9 }),
    entry("b", 10, { ai: 1 }),
    entry("c", 7),
    entry("d", 1, { ai: 4 }),
  ];

  it("ranks by total submissions and cuts to the limit", () => {
    expect(topCurators(entries, 2).map((ranked) => [ranked.entry.curatorUsername, ranked.points])).toEqual([
      ["b", 10],
      ["c", 7],
    ]);
  });

  it("ranks by the feed's own count on a feed page", () => {
    expect(
      topCurators(entries, 3, "ai").map((ranked) => [ranked.entry.curatorUsername, ranked.points]),
    ).toEqual([
      ["a", 9],
      ["d", 4],
      ["b", 1],
    ]);
  });
});

describe("leaderboard search parameters", () => {
  it("keeps usable values", () => {
    const search = leaderboardSearchSchema.parse({ feed: "ai-news", timeframe: "week" });
    expect(resolveLeaderboardSearch(search)).toEqual({ feed: "ai-news", timeframe: "week" });
  });

  it("falls back to all feeds and all time for anything unusable", () => {
    for (const raw of [{}, { feed: "Not A Feed!", timeframe: "decade" }, { feed: 42, timeframe: ["week"] }]) {
      expect(resolveLeaderboardSearch(leaderboardSearchSchema.parse(raw))).toEqual({
        feed: ALL_FEEDS,
        timeframe: "all",
      });
    }
  });
});
