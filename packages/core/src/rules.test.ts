import { describe, expect, it } from "vitest";
import { listSearchSchema } from "./explore.ts";
import { isFeedComplete } from "./feed-rules.ts";
import { feedConfigSchema, feedImageSchema, IMAGE_MESSAGE } from "./feeds.ts";
import type { LeaderboardEntry } from "./leaderboard.ts";
import { approvalRate, curatorPoints } from "./leaderboard-rules.ts";
import { overallStatus } from "./submission-rules.ts";
import { submissionListQuerySchema } from "./submissions.ts";

describe("listSearchSchema (page search parameters)", () => {
  it("keeps valid values", () => {
    expect(
      listSearchSchema.parse({ status: "approved", sortOrder: "oldest", q: "near", platform: "bluesky" }),
    ).toEqual({
      status: "approved",
      sortOrder: "oldest",
      q: "near",
      platform: "bluesky",
    });
  });

  it("drops anything outside the enums instead of failing", () => {
    expect(listSearchSchema.parse({ status: "bogus", sortOrder: 5, q: ["a"], platform: "myspace" })).toEqual({
      status: undefined,
      sortOrder: undefined,
      q: undefined,
      platform: undefined,
    });
    expect(listSearchSchema.parse({ q: "   " }).q).toBeUndefined();
  });
});

describe("submissionListQuerySchema (API query)", () => {
  it("applies defaults", () => {
    expect(submissionListQuerySchema.parse({})).toEqual({
      limit: 20,
      status: "all",
      sortOrder: "newest",
    });
  });

  it.each([
    { page: "-1" },
    { limit: "0" },
    { limit: "101" },
    { status: "done" },
    { sortOrder: "asc" },
    { offset: "-1" },
    { page: "0", offset: "0" },
  ])("refuses %o", (query) => {
    expect(submissionListQuerySchema.safeParse(query).success).toBe(false);
  });
});

describe("overallStatus", () => {
  it.each([
    [[], "pending"],
    [["pending"], "pending"],
    [["approved", "rejected"], "approved"],
    [["pending", "rejected"], "pending"],
    [["rejected", "rejected"], "rejected"],
    [["pending", "approved"], "approved"],
  ] as const)("%o → %s", (statuses, expected) => {
    expect(overallStatus(statuses)).toBe(expected);
  });
});

describe("leaderboard rules", () => {
  it("rounds the approval rate and is 0 without submissions", () => {
    expect(approvalRate(0, 0)).toBe(0);
    expect(approvalRate(1, 3)).toBe(33);
    expect(approvalRate(2, 3)).toBe(67);
    expect(approvalRate(5, 5)).toBe(100);
  });

  it("counts points per feed on a feed page, else in total", () => {
    const entry: LeaderboardEntry = {
      rank: 1,
      curatorId: "1",
      curatorUsername: "alice",
      handles: ["alice"],
      submissionCount: 7,
      approvalCount: 3,
      rejectionCount: 1,
      feedSubmissions: [{ feedId: "ai", count: 4, totalInFeed: 10 }],
      userId: null,
      displayName: "@alice",
      avatarUrl: null,
      score: 7,
    };
    expect(curatorPoints(entry)).toBe(7);
    expect(curatorPoints(entry, "ai")).toBe(4);
    expect(curatorPoints(entry, "web3")).toBe(0);
  });
});

describe("feed config", () => {
  const base = { id: "ai-news", name: "AI News", description: "The latest in AI" };

  it("accepts configs written by older tools unchanged", () => {
    const legacy = {
      ...base,
      sources: [{ plugin: "@curatedotfun/twitter", search: [{ type: "twitter", query: "#ai", extra: 1 }] }],
      outputs: {
        stream: { enabled: true, distribute: [{ plugin: "@curatedotfun/rss", config: { x: "{{Y}}" } }] },
      },
      someFutureKey: { kept: true },
    };
    expect(feedConfigSchema.parse(legacy)).toEqual(legacy);
  });

  it("lower-cases the id", () => {
    expect(feedConfigSchema.parse({ ...base, id: "AI" }).id).toBe("ai");
  });

  it.each([
    [{ ...base, id: "A I" }, "id"],
    [{ ...base, image: "not a url" }, "image"],
    [{ ...base, pollingIntervalMs: 999 }, "pollingIntervalMs"],
    [{ ...base, name: "" }, "name"],
  ])("refuses %o at %s", (config, path) => {
    const result = feedConfigSchema.safeParse(config);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([path]);
  });

  it("is complete with a name, a description and a source", () => {
    expect(isFeedComplete(base)).toBe(false);
    expect(isFeedComplete({ ...base, sources: [{ plugin: "x" }] })).toBe(true);
    expect(isFeedComplete({ ...base, name: " ", sources: [{ plugin: "x" }] })).toBe(false);
  });
});

describe("feedImageSchema", () => {
  const upload = `/uploads/${"0a".repeat(32)}.png`;
  it.each(["", upload, `/uploads/${"f".repeat(64)}.svg`, "https://cdn.example.com/a.png"])(
    "accepts %s",
    (image) => {
      expect(feedImageSchema.safeParse(image).success).toBe(true);
    },
  );

  it.each([
    "not-a-url",
    "javascript:alert(1)",
    "/uploads/short.png",
    `/uploads/${"0a".repeat(32)}.exe`,
    `//evil.example${upload}`,
    "data:image/png;base64,AAAA",
  ])("refuses %s with one message", (image) => {
    const result = feedImageSchema.safeParse(image);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([IMAGE_MESSAGE]);
  });
});
