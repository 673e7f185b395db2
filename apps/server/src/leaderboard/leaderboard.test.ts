import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { timeRangeStart } from "./service.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "ai" });
  await insertFeed(server.db, { id: "web3" });
  const recent = new Date();
  await insertSubmission(server.db, {
    curatorUsername: "alice",
    submittedAt: recent,
    feeds: [
      { feedId: "ai", status: "approved" },
      { feedId: "web3", status: "rejected" },
    ],
  });
  await insertSubmission(server.db, {
    curatorUsername: "alice",
    feeds: [{ feedId: "ai", status: "approved" }],
  });
  await insertSubmission(server.db, {
    curatorUsername: "bob",
    feeds: [{ feedId: "ai" }, { feedId: "web3" }],
  });
  await insertSubmission(server.db, {
    curatorUsername: "carol",
    feeds: [{ feedId: "web3", status: "rejected" }],
  });
});

afterAll(() => server.close());

describe("GET /api/leaderboard", () => {
  it("ranks curators by submissions then approvals, counting each feed link", async () => {
    const { status, body } = await server.json("/api/leaderboard");
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        rank: 1,
        curatorId: "c-alice",
        curatorUsername: "alice",
        handles: ["alice"],
        submissionCount: 3,
        approvalCount: 2,
        rejectionCount: 1,
        feedSubmissions: [
          { feedId: "ai", count: 2, totalInFeed: 3 },
          { feedId: "web3", count: 1, totalInFeed: 3 },
        ],
        // The spec's entry fields too: no Curate account linked this handle, so it is named as the app shows it.
        userId: null,
        displayName: "@alice",
        avatarUrl: null,
        score: 3,
        // Decided by mod.near, not by alice herself: every decision counts for her reputation.
        reputation: {
          approvedCount: 2,
          rejectedCount: 1,
          retractedCount: 0,
          approvalRate: 67,
          score: expect.closeTo(0.2077, 4),
        },
      },
      expect.objectContaining({ curatorUsername: "bob", submissionCount: 2, approvalCount: 0 }),
      expect.objectContaining({ curatorUsername: "carol", submissionCount: 1, rejectionCount: 1 }),
    ]);
  });

  it("filters by feed, time range and limit", async () => {
    const web3 = await server.json("/api/leaderboard?feedId=web3");
    expect(web3.body.data.map((e: { curatorUsername: string }) => e.curatorUsername)).toEqual([
      "alice",
      "bob",
      "carol",
    ]);
    const today = await server.json("/api/leaderboard?timeRange=today");
    expect(today.body.data).toEqual([
      expect.objectContaining({ curatorUsername: "alice", submissionCount: 2 }),
    ]);
    const top1 = await server.json("/api/leaderboard?limit=1");
    expect(top1.body.data).toHaveLength(1);
  });

  it.each(["?timeRange=year", "?limit=0", "?limit=x"])("refuses %s with a 400", async (query) => {
    const { status, body } = await server.json(`/api/leaderboard${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
  });

  it("caps limit at 100, with one message for every bad limit", async () => {
    expect((await server.json("/api/leaderboard?limit=100")).status).toBe(200);
    const messages = new Set<string>();
    for (const limit of ["0", "101", "1000", "x", "-1", "2.5", ""]) {
      const { status, body } = await server.json(`/api/leaderboard?limit=${limit}`);
      expect(status, `limit=${limit}`).toBe(400);
      messages.add(JSON.stringify(body.error.details));
    }
    expect(messages.size).toBe(1);
    expect([...messages][0]).toContain("limit must be a whole number from 1 to 100");
  });

  it("matches feed ids case-insensitively and is a 404 for an unknown feed or the hidden `all`", async () => {
    const upper = await server.json("/api/leaderboard?feedId=WEB3");
    expect(upper.status).toBe(200);
    expect(upper.body.data.map((e: { curatorUsername: string }) => e.curatorUsername)).toEqual([
      "alice",
      "bob",
      "carol",
    ]);
    for (const feedId of ["bogus", "all", "ALL"]) {
      const { status, body } = await server.json(`/api/leaderboard?feedId=${feedId}`);
      expect(status, feedId).toBe(404);
      expect(body.error.code).toBe("NOT_FOUND");
    }
  });

  it("ranks each entry from 1", async () => {
    const { body } = await server.json("/api/leaderboard");
    expect(body.data.map((e: { rank: number }) => e.rank)).toEqual(
      body.data.map((_: unknown, i: number) => i + 1),
    );
    const web3 = await server.json("/api/leaderboard?feedId=web3&limit=2");
    expect(web3.body.data.map((e: { rank: number }) => e.rank)).toEqual([1, 2]);
  });
});

describe("timeRangeStart", () => {
  const wednesday = new Date("2026-11-18T15:30:00Z");
  it("starts ranges at UTC midnight, Monday and the first of the month", () => {
    expect(timeRangeStart("all", wednesday)).toBeNull();
    expect(timeRangeStart("today", wednesday)?.toISOString()).toBe("2026-11-18T00:00:00.000Z");
    expect(timeRangeStart("week", wednesday)?.toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(timeRangeStart("week", new Date("2026-11-22T23:59:59Z"))?.toISOString()).toBe(
      "2026-11-16T00:00:00.000Z",
    );
    expect(timeRangeStart("week", new Date("2026-11-16T00:00:00Z"))?.toISOString()).toBe(
      "2026-11-16T00:00:00.000Z",
    );
    expect(timeRangeStart("month", wednesday)?.toISOString()).toBe("2026-11-01T00:00:00.000Z");
  });
});

describe("per-feed rows", () => {
  it("show a prolific curator's top 10 feeds, strongest first", async () => {
    for (let i = 0; i < 12; i++) {
      await insertFeed(server.db, { id: `topic${String(i).padStart(2, "0")}` });
      const links = Array.from({ length: i === 11 ? 3 : 1 }, () => ({
        feedId: `topic${String(i).padStart(2, "0")}`,
      }));
      for (const link of links)
        await insertSubmission(server.db, { curatorUsername: "prolific", feeds: [link] });
    }
    const { body } = await server.json("/api/leaderboard?limit=1");
    expect(body.data[0]).toMatchObject({ curatorUsername: "prolific", submissionCount: 14 });
    expect(body.data[0].feedSubmissions).toHaveLength(10);
    expect(body.data[0].feedSubmissions[0]).toEqual({ feedId: "topic11", count: 3, totalInFeed: 3 });
    expect(body.data[0].feedSubmissions.slice(1).map((f: { feedId: string }) => f.feedId)).toEqual([
      "topic00",
      "topic01",
      "topic02",
      "topic03",
      "topic04",
      "topic05",
      "topic06",
      "topic07",
      "topic08",
    ]);
  });
});
