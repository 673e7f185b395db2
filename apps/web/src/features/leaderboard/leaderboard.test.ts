import type { LeaderboardEntry } from "@curate/core";
import { describe, expect, it } from "vitest";
import { topCurators, topCuratorsLimit, topCuratorsQueryOptions } from "./api";
import {
  ALL_FEEDS,
  feedIdFilter,
  leaderboardSearchSchema,
  resolveLeaderboardSearch,
  toLeaderboardSearch,
} from "./search";

function entry(
  curatorUsername: string,
  submissionCount: number,
  feeds: Record<string, number> = {},
): LeaderboardEntry {
  return {
    rank: 1,
    curatorId: curatorUsername,
    curatorUsername,
    submissionCount,
    approvalCount: 0,
    rejectionCount: 0,
    feedSubmissions: Object.entries(feeds).map(([feedId, count]) => ({ feedId, count, totalInFeed: count })),
    userId: null,
    displayName: `@${curatorUsername}`,
    avatarUrl: null,
    score: submissionCount,
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

describe("top curator panel size", () => {
  it("is 10 on Explore and 5 on a feed page unless a limit is given", () => {
    expect(topCuratorsLimit({})).toBe(10);
    expect(topCuratorsLimit({ feedId: "ai" })).toBe(5);
    expect(topCuratorsLimit({ feedId: "ai", limit: 3 })).toBe(3);
  });

  it("asks the server for that feed's all-time ranking", () => {
    expect(topCuratorsQueryOptions({ feedId: "ai" }).queryKey).toEqual([
      "leaderboard",
      { timeRange: "all", feedId: "ai", limit: 5 },
    ]);
  });
});

describe("leaderboard search parameters", () => {
  it("ranks by score all-time only: a time range in the address gives way", () => {
    const search = leaderboardSearchSchema.parse({ sort: "score", timeframe: "week" });
    expect(resolveLeaderboardSearch(search)).toEqual({ feed: ALL_FEEDS, timeframe: "all", sort: "score" });
    expect(toLeaderboardSearch(resolveLeaderboardSearch(search))).toEqual({
      feed: undefined,
      timeframe: undefined,
      sort: "score",
    });
    expect(leaderboardSearchSchema.parse({ sort: "karma" }).sort).toBeUndefined();
  });

  it("asks Top Curators for the score ranking only when chosen", () => {
    expect(topCuratorsQueryOptions({ sort: "score" }).queryKey).toEqual([
      "leaderboard",
      { timeRange: "all", feedId: undefined, limit: 10, sort: "score" },
    ]);
  });

  it("keeps usable values", () => {
    const search = leaderboardSearchSchema.parse({ feed: "ai-news", timeframe: "week" });
    expect(resolveLeaderboardSearch(search)).toEqual({
      feed: "ai-news",
      timeframe: "week",
      sort: "submissions",
    });
  });

  it("falls back to all feeds and all time for anything unusable", () => {
    for (const raw of [{}, { feed: "Not A Feed!", timeframe: "decade" }, { feed: 42, timeframe: ["week"] }]) {
      expect(resolveLeaderboardSearch(leaderboardSearchSchema.parse(raw))).toEqual({
        feed: ALL_FEEDS,
        timeframe: "all",
        sort: "submissions",
      });
    }
  });

  it("falls back to all feeds for a well-formed id that names no feed, once the feeds are known", () => {
    const feeds = [{ id: "ai" }, { id: "crypto" }];
    const search = leaderboardSearchSchema.parse({ feed: "nope", timeframe: "month" });
    const counts = { sort: "submissions" };
    expect(resolveLeaderboardSearch(search, feeds)).toEqual({
      feed: ALL_FEEDS,
      timeframe: "month",
      ...counts,
    });
    expect(resolveLeaderboardSearch(search)).toEqual({ feed: "nope", timeframe: "month", ...counts });
    expect(resolveLeaderboardSearch({ feed: "crypto" }, feeds)).toEqual({
      feed: "crypto",
      timeframe: "all",
      ...counts,
    });
  });

  it("leaves defaults out of the address and out of the server query", () => {
    expect(toLeaderboardSearch({ feed: ALL_FEEDS, timeframe: "all", sort: "submissions" })).toEqual({
      feed: undefined,
      timeframe: undefined,
      sort: undefined,
    });
    expect(toLeaderboardSearch({ feed: "ai", timeframe: "today", sort: "submissions" })).toEqual({
      feed: "ai",
      timeframe: "today",
      sort: undefined,
    });
    expect(feedIdFilter(ALL_FEEDS)).toBeUndefined();
    expect(feedIdFilter("ai")).toBe("ai");
  });
});
