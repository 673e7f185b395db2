import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { submissionFeeds } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server;
  await insertFeed(db, { id: "all", name: "All" });
  await insertFeed(db, { id: "ai", name: "AI" });
  await insertFeed(db, { id: "web3", name: "Web3" });
  // 25 pending posts in "ai" so paging has two pages there.
  for (let i = 0; i < 25; i++) {
    await insertSubmission(server.db, {
      tweetId: `10${String(i).padStart(3, "0")}`,
      content: `Model release note ${i}`,
      feeds: [{ feedId: "ai" }],
    });
  }
  await insertSubmission(db, {
    tweetId: "20001",
    content: "Approved in ai, rejected in web3",
    username: "satoshi",
    curatorUsername: "alice",
    curatorNotes: "first note",
    feeds: [
      { feedId: "ai", status: "approved" },
      { feedId: "web3", status: "rejected", curatorUsername: "bob", curatorNotes: "web3 note" },
    ],
  });
  await insertSubmission(db, {
    tweetId: "20002",
    content: "Rejected everywhere 100%_sure",
    feeds: [
      { feedId: "ai", status: "rejected" },
      { feedId: "web3", status: "rejected" },
    ],
  });
  await insertSubmission(db, {
    tweetId: "20003",
    content: "Pending in web3, rejected in ai: 100 percent",
    curatorUsername: "carol_x",
    feeds: [
      { feedId: "ai", status: "rejected" },
      { feedId: "web3", status: "pending" },
    ],
  });
  await insertSubmission(db, { tweetId: "20004", content: "No feed named", feeds: [{ feedId: "all" }] });
});

afterAll(() => server.close());

const list = (query = "") => server.json(`/api/submissions${query}`);

describe("GET /api/submissions", () => {
  it("pages in the envelope with zero-based pages, default limit 20 and exact totals", async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.statusCode).toBe(200);
    expect(Number.isNaN(Date.parse(first.body.timestamp))).toBe(false);
    expect(first.body.data.items).toHaveLength(20);
    expect(first.body.data.pagination).toEqual({ page: 0, limit: 20, hasNextPage: true, totalCount: 29 });

    const second = await list("?page=1");
    expect(second.body.data.items).toHaveLength(9);
    expect(second.body.data.pagination).toEqual({ page: 1, limit: 20, hasNextPage: false, totalCount: 29 });
    const ids = [...first.body.data.items, ...second.body.data.items].map(
      (s: { tweetId: string }) => s.tweetId,
    );
    expect(new Set(ids).size).toBe(29);
  });

  it("takes an offset instead of a page: the same items from any position, and never both", async () => {
    const all = (await list("?limit=100")).body.data.items.map((s: { tweetId: string }) => s.tweetId);
    const byPage = await list("?page=1&limit=10");
    const byOffset = await list("?offset=10&limit=10");
    expect(byOffset.status).toBe(200);
    expect(byOffset.body.data.items).toEqual(byPage.body.data.items);
    expect(byOffset.body.data.pagination).toEqual({
      page: 1,
      offset: 10,
      limit: 10,
      hasNextPage: true,
      totalCount: 29,
    });
    const between = await list("?offset=25&limit=10&sortOrder=newest");
    expect(between.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(all.slice(25));
    expect(between.body.data.pagination).toMatchObject({ page: 2, offset: 25, hasNextPage: false });
    const feed = await server.json("/api/submissions/feed/ai?offset=20");
    expect(feed.body.data.items).toEqual(
      (await server.json("/api/submissions/feed/ai?page=1")).body.data.items,
    );

    const both = await list("?page=1&offset=10");
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ path: "offset", message: "Give page or offset, not both" }]);
  });

  it("sorts newest first by default and oldest first on request", async () => {
    const newest = (await list("?limit=100")).body.data.items.map(
      (s: { submittedAt: string }) => s.submittedAt,
    );
    expect(newest).toEqual([...newest].sort().reverse());
    const oldest = (await list("?limit=100&sortOrder=oldest")).body.data.items.map(
      (s: { submittedAt: string }) => s.submittedAt,
    );
    expect(oldest).toEqual([...newest].reverse());
  });

  it("derives the overall status from the per-feed statuses", async () => {
    const byId = async (id: string) => (await server.json(`/api/submissions/single/${id}`)).body.data.status;
    expect(await byId("20001")).toBe("approved");
    expect(await byId("20002")).toBe("rejected");
    expect(await byId("20003")).toBe("pending");
    expect(await byId("10000")).toBe("pending");
  });

  it("filters by status, with totals matching", async () => {
    const approved = await list("?status=approved");
    expect(approved.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20001"]);
    expect(approved.body.data.pagination.totalCount).toBe(1);
    const rejected = await list("?status=rejected");
    expect(rejected.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20002"]);
    const pending = await list("?status=pending&limit=100");
    expect(pending.body.data.pagination.totalCount).toBe(27);
    expect(pending.body.data.items.every((s: { status: string }) => s.status === "pending")).toBe(true);
    const all = await list("?status=all");
    expect(all.body.data.pagination.totalCount).toBe(29);
  });

  it("searches content, author and curator case-insensitively", async () => {
    const byContent = await list("?q=EVERYWHERE");
    expect(byContent.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20002"]);
    const byAuthor = await list("?q=satosh");
    expect(byAuthor.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20001"]);
    const byCurator = await list("?q=carol");
    expect(byCurator.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20003"]);
    const combined = await list("?q=model%20release&status=pending&limit=5");
    expect(combined.body.data.items).toHaveLength(5);
    expect(combined.body.data.pagination).toMatchObject({ totalCount: 25, hasNextPage: true });
    const none = await list("?q=zzzz-not-there");
    expect(none.body.data).toEqual({
      items: [],
      pagination: { page: 0, limit: 20, hasNextPage: false, totalCount: 0 },
    });
  });

  it("matches a handle typed as the app shows it, with its @", async () => {
    const byAuthor = await list(`?q=${encodeURIComponent("@satoshi")}`);
    expect(byAuthor.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20001"]);
    const byCurator = await list(`?q=${encodeURIComponent("@Carol")}`);
    expect(byCurator.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20003"]);
    const scoped = await server.json(`/api/submissions/feed/ai?q=${encodeURIComponent("@satoshi")}`);
    expect(scoped.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20001"]);
  });

  it("matches a curator by the handle people see, never by the network its stored key starts with", async () => {
    await insertSubmission(server.db, {
      tweetId: "20009",
      content: "A post about rollups",
      curatorUsername: "telegram:tg_words",
      feeds: [{ feedId: "ai" }],
    });
    try {
      const ids = async (q: string) =>
        (await list(`?q=${encodeURIComponent(q)}`)).body.data.items.map(
          (s: { tweetId: string }) => s.tweetId,
        );
      expect(await ids("telegram")).toEqual([]);
      expect(await ids("tg_words")).toEqual(["20009"]);
      expect(await ids("@tg_wo")).toEqual(["20009"]);
    } finally {
      await server.db.execute(sql`delete from submissions where tweet_id = '20009'`);
    }
  });

  it("takes % and _ in the search literally", async () => {
    const percent = await list(`?q=${encodeURIComponent("100%")}`);
    expect(percent.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20002"]);
    const underscore = await list(`?q=${encodeURIComponent("%_sure")}`);
    expect(underscore.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20002"]);
    const inHandle = await list(`?q=${encodeURIComponent("l_x")}`);
    expect(inHandle.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20003"]);
    // Shorter than three characters, a search is the start of a handle (decision 0014): "_" starts none.
    const lone = await list(`?q=${encodeURIComponent("_")}`);
    expect(lone.body.data.items).toEqual([]);
  });

  it("returns each item's feeds and moderation history", async () => {
    const item = (await list("?q=satoshi")).body.data.items[0];
    expect(item).toMatchObject({
      tweetId: "20001",
      username: "satoshi",
      curatorUsername: "alice",
      curatorNotes: "first note",
      status: "approved",
    });
    expect(item.feeds).toEqual([
      expect.objectContaining({ feedId: "ai", feedName: "AI", status: "approved", curatorUsername: "alice" }),
      expect.objectContaining({
        feedId: "web3",
        status: "rejected",
        curatorUsername: "bob",
        curatorNotes: "web3 note",
      }),
    ]);
    expect(
      item.moderationHistory.map((h: { feedId: string; action: string }) => [h.feedId, h.action]),
    ).toEqual([
      ["ai", "approve"],
      ["web3", "reject"],
    ]);
    expect(item.submittedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("carries the spec's entity fields: the link's submissionId, createdAt, updatedAt; the record's updatedAt", async () => {
    const item = (await list("?q=satoshi")).body.data.items[0];
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    for (const link of item.feeds) {
      expect(link.submissionId).toBe("20001");
      expect(link.createdAt).toMatch(iso);
      expect(link.updatedAt).toMatch(iso);
    }
    for (const record of item.moderationHistory) expect(record.updatedAt).toMatch(iso);
  });

  it.each([
    ["?status=bogus", "status"],
    ["?sortOrder=sideways", "sortOrder"],
    ["?page=-1", "page"],
    ["?page=abc", "page"],
    ["?offset=-1", "offset"],
    ["?offset=1.5", "offset"],
    ["?offset=100000001", "offset"],
    ["?sortOrder=asc", "sortOrder"],
    ["?limit=0", "limit"],
    ["?limit=1000", "limit"],
    ["?limit=2.5", "limit"],
    [`?q=${"x".repeat(201)}`, "q"],
  ])("refuses %s with a 400 naming the field", async (query, field) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.statusCode).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.message).toContain(field);
    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
  });
});

describe("GET /api/submissions/feed/{feedId}", () => {
  it("lists a feed's submissions with that feed's status, curator and notes", async () => {
    const web3 = await server.json("/api/submissions/feed/web3?limit=100");
    expect(web3.status).toBe(200);
    const byId = Object.fromEntries(
      web3.body.data.items.map((s: { tweetId: string }) => [s.tweetId, s]),
    ) as Record<string, { status: string; curatorUsername: string; curatorNotes: string | null }>;
    expect(Object.keys(byId).sort()).toEqual(["20001", "20002", "20003"]);
    expect(byId["20001"]).toMatchObject({
      status: "rejected",
      curatorUsername: "bob",
      curatorNotes: "web3 note",
    });
    expect(byId["20003"].status).toBe("pending");
    expect(web3.body.data.pagination.totalCount).toBe(3);
  });

  it("filters by the per-feed status and reads the approved count from totalCount", async () => {
    const approved = await server.json("/api/submissions/feed/ai?page=0&limit=1&status=approved");
    expect(approved.body.data.pagination).toEqual({ page: 0, limit: 1, hasNextPage: false, totalCount: 1 });
    const pending = await server.json("/api/submissions/feed/ai?status=pending");
    expect(pending.body.data.pagination).toMatchObject({ totalCount: 25, hasNextPage: true });
    const searched = await server.json("/api/submissions/feed/web3?q=everywhere");
    expect(searched.body.data.items.map((s: { tweetId: string }) => s.tweetId)).toEqual(["20002"]);
    expect(searched.body.data.pagination.totalCount).toBe(1);
  });

  it("is a 404 envelope for an unknown feed and a 400 for bad input", async () => {
    const missing = await server.json("/api/submissions/feed/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("nope") });
    const bad = await server.json("/api/submissions/feed/ai?status=archived");
    expect(bad.status).toBe(400);
  });

  it("keeps counters exact when a link changes status or goes away", async () => {
    await server.db
      .update(submissionFeeds)
      .set({ status: "approved" })
      .where(eq(submissionFeeds.submissionId, "10000"));
    const approved = await server.json("/api/submissions/feed/ai?status=approved");
    expect(approved.body.data.pagination.totalCount).toBe(2);
    expect((await server.json("/api/submissions/single/10000")).body.data.status).toBe("approved");
    await server.db.delete(submissionFeeds).where(eq(submissionFeeds.submissionId, "10000"));
    expect(
      (await server.json("/api/submissions/feed/ai?status=approved")).body.data.pagination.totalCount,
    ).toBe(1);
    expect((await server.json("/api/submissions/single/10000")).body.data.status).toBe("pending");
    const [counts] = await queryRows<{ counted: number; kept: number }>(
      server.db,
      sql`select (select count(*) from submission_feeds where feed_id = 'ai')::int as counted,
        (select sum(count) from submission_counts where scope = 'ai')::int as kept`,
    );
    expect(counts.kept).toBe(counts.counted);
  });
});

describe("GET /api/submissions/single/{tweetId}", () => {
  it("returns one submission with its history and feeds", async () => {
    const { status, body } = await server.json("/api/submissions/single/20002");
    expect(status).toBe(200);
    expect(body.data.tweetId).toBe("20002");
    expect(body.data.feeds.map((f: { feedId: string }) => f.feedId)).toEqual(["ai", "web3"]);
    expect(body.data.moderationHistory).toHaveLength(2);
  });

  it("is a 404 envelope for an unknown id", async () => {
    const { status, body } = await server.json("/api/submissions/single/404404");
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, statusCode: 404, error: { code: "NOT_FOUND" } });
  });
});
