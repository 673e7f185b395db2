import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { activities, users } from "../db/schema.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "ai" });
  await server.db.insert(users).values([{ nearAccountId: "a.near" }, { nearAccountId: "b.near" }]);
  await insertSubmission(server.db, {
    curatorUsername: "alice",
    feeds: [{ feedId: "ai", status: "approved" }],
  });
  await insertSubmission(server.db, {
    curatorUsername: "alice",
    feeds: [{ feedId: "ai", status: "pending" }],
  });
  await insertSubmission(server.db, {
    curatorUsername: "bob",
    feeds: [{ feedId: "ai", status: "rejected" }],
  });
  const at = (iso: string) => new Date(iso);
  await server.db.insert(activities).values([
    {
      userId: "alice",
      type: "CONTENT_SUBMISSION",
      feedId: "ai",
      submissionId: "1",
      timestamp: at("2026-01-01T10:00:00Z"),
    },
    {
      userId: "alice",
      type: "CONTENT_SUBMISSION",
      feedId: "ai",
      submissionId: "2",
      timestamp: at("2026-01-02T10:00:00Z"),
    },
    {
      userId: "alice",
      type: "CONTENT_APPROVAL",
      feedId: "ai",
      submissionId: "1",
      timestamp: at("2026-01-03T10:00:00Z"),
    },
    { userId: "alice", type: "POINTS_AWARDED", timestamp: new Date(), data: { points: 5 } },
    {
      userId: "bob",
      type: "CONTENT_SUBMISSION",
      feedId: "ai",
      submissionId: "3",
      timestamp: at("2026-01-01T11:00:00Z"),
    },
  ]);
});

afterAll(() => server.close());

describe("GET /api/activity/users/{userId}", () => {
  it("lists newest first with the spec's defaults", async () => {
    const { status, body } = await server.json("/api/activity/users/alice");
    expect(status).toBe(200);
    expect(body.data.items.map((a: { type: string }) => a.type)).toEqual([
      "POINTS_AWARDED",
      "CONTENT_APPROVAL",
      "CONTENT_SUBMISSION",
      "CONTENT_SUBMISSION",
    ]);
    expect(body.data.pagination).toEqual({
      page: 0,
      limit: 20,
      offset: 0,
      hasNextPage: false,
      totalCount: 4,
    });
    expect(body.data.items[0]).toMatchObject({
      user_id: "alice",
      data: { points: 5 },
      timestamp: expect.stringMatching(/Z$/),
    });
  });

  it("filters by types (dropping unknown ones), dates, time range, and pages by offset", async () => {
    const typed = await server.json(
      "/api/activity/users/alice?types=content_submission,NOPE,CONTENT_APPROVAL",
    );
    expect(typed.body.data.pagination.totalCount).toBe(3);
    // Only unknown types asked for: nothing, not everything.
    const bogus = await server.json("/api/activity/users/alice?types=BOGUS");
    expect(bogus.status).toBe(200);
    expect(bogus.body.data.items).toEqual([]);
    expect(bogus.body.data.pagination.totalCount).toBe(0);
    const all = await server.json("/api/activity/users/alice?types=");
    expect(all.body.data.pagination.totalCount).toBeGreaterThan(3);
    const dated = await server.json(
      "/api/activity/users/alice?from_date=2026-01-02T00:00:00Z&to_date=2026-01-03T23:59:59.999Z&sortOrder=asc",
    );
    expect(dated.body.data.items.map((a: { submission_id: string }) => a.submission_id)).toEqual(["2", "1"]);
    const recent = await server.json("/api/activity/users/alice?time_range=day");
    expect(recent.body.data.items.map((a: { type: string }) => a.type)).toEqual(["POINTS_AWARDED"]);
    const paged = await server.json("/api/activity/users/alice?limit=1&offset=1");
    expect(paged.body.data.items[0].type).toBe("CONTENT_APPROVAL");
    expect(paged.body.data.pagination).toEqual({
      page: 1,
      limit: 1,
      offset: 1,
      hasNextPage: true,
      totalCount: 4,
    });
  });

  it.each([
    ["from_date=2026-01-01", "Invalid datetime string for from_date. Must be UTC and in ISO8601 format."],
    [
      "to_date=2026-01-01T10:00:00%2B02:00",
      "Invalid datetime string for to_date. Must be UTC and in ISO8601 format.",
    ],
    ["from_date=2026-02-01T00:00:00Z&to_date=2026-01-01T00:00:00Z", "from_date must not be after to_date"],
    ["limit=0", "limit"],
    ["offset=-1", "offset"],
    ["time_range=decade", "time_range"],
    ["sortBy=type", "sortBy"],
    ["sortOrder=up", "sortOrder"],
  ])("refuses %s with a 400", async (query, message) => {
    const { status, body } = await server.json(`/api/activity/users/alice?${query}`);
    expect(status).toBe(400);
    expect(body.error.message).toContain(message);
  });
});

describe("ranks and stats", () => {
  it("ranks curators by submissions and moderators by decisions; null when unranked", async () => {
    expect((await server.json("/api/activity/users/alice/ranks")).body.data).toEqual({
      curatorRank: 1,
      approverRank: null,
    });
    expect((await server.json("/api/activity/users/bob/ranks")).body.data).toEqual({
      curatorRank: 2,
      approverRank: null,
    });
    expect((await server.json("/api/activity/users/mod.near/ranks")).body.data).toEqual({
      curatorRank: null,
      approverRank: 1,
    });
    expect((await server.json("/api/activity/users/nobody/ranks")).body.data).toEqual({
      curatorRank: null,
      approverRank: null,
    });
  });

  it("reports site totals from the kept counters", async () => {
    expect((await server.json("/api/activity/stats")).body.data).toEqual({
      totalUsers: 2,
      totalSubmissions: 3,
      totalActivities: 5,
      pendingSubmissions: 1,
      approvedSubmissions: 1,
      rejectedSubmissions: 1,
    });
  });
});
