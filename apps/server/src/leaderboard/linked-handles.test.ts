import { handleOnPlatform } from "@curate/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { linkedAccounts, users } from "../db/schema.ts";

let server: TestServer;

const SAM = {
  x: handleOnPlatform("twitter", "sam_reads"),
  bluesky: handleOnPlatform("bluesky", "sam.bsky.social"),
  mastodon: handleOnPlatform("mastodon", "sam@fosstodon.org"),
};
const DANA_TELEGRAM = handleOnPlatform("telegram", "dana");
const DANA_MASTODON = handleOnPlatform("mastodon", "dana");
const SAM_IMAGE = `/uploads/${"c".repeat(64)}.png`;

/** Posts by `curator` to feeds, one submission each, all pending unless a status is given. */
async function curate(curator: string, feeds: Array<string | [string, "approved" | "rejected"]>) {
  for (const feed of feeds) {
    const [feedId, status] = typeof feed === "string" ? [feed, undefined] : feed;
    await insertSubmission(server.db, {
      curatorUsername: curator,
      submittedAt: new Date(),
      feeds: [{ feedId, status }],
    });
  }
}

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "ai" });
  await insertFeed(server.db, { id: "web3" });
  // Sam's three handles, each below the leader alone (4), but 6 together once linked.
  await curate(SAM.x, ["ai", ["web3", "approved"]]);
  await curate(SAM.bluesky, [["ai", "approved"], "ai"]);
  await curate(SAM.mastodon, [["web3", "rejected"], "ai"]);
  await curate("leader", ["ai", "ai", "web3", "web3"]);
  // Two people who happen to share a name on Telegram and Mastodon, neither linked.
  await curate(DANA_TELEGRAM, ["ai", "ai", "ai"]);
  await curate(DANA_MASTODON, ["web3"]);

  const [sam] = await server.db
    .insert(users)
    .values({ nearAccountId: "sam.near", username: "sam", profileImage: SAM_IMAGE })
    .returning();
  // An image elsewhere (written before profile images were uploads only) is never handed to visitors' browsers.
  const [lee] = await server.db
    .insert(users)
    .values({ nearAccountId: "lee.near", profileImage: "https://tracker.example/lee.png" })
    .returning();
  await server.db
    .insert(linkedAccounts)
    .values({ userId: lee.id, platformName: "twitter", platformUserId: "2002", username: "leader" });
  await server.db.insert(linkedAccounts).values([
    { userId: sam.id, platformName: "twitter", platformUserId: "1001", username: "sam_reads" },
    {
      userId: sam.id,
      platformName: "bluesky",
      platformUserId: "did:plc:sam",
      username: "sam.bsky.social",
    },
    {
      userId: sam.id,
      platformName: "mastodon",
      platformUserId: "sam@fosstodon.org",
      username: "sam@fosstodon.org",
    },
  ]);
});

afterAll(() => server.close());

describe("leaderboard with linked handles", () => {
  it("counts a Curate account's linked handles as one curator, summed, its handles listed strongest first", async () => {
    const { status, body } = await server.json("/api/leaderboard");
    expect(status).toBe(200);
    const [first, ...rest] = body.data;
    expect(first).toEqual({
      rank: 1,
      curatorId: `c-${SAM.bluesky}`,
      curatorUsername: SAM.bluesky,
      handles: [SAM.bluesky, SAM.x, SAM.mastodon],
      submissionCount: 6,
      approvalCount: 2,
      rejectionCount: 1,
      feedSubmissions: [
        { feedId: "ai", count: 4, totalInFeed: 9 },
        { feedId: "web3", count: 2, totalInFeed: 5 },
      ],
      userId: "sam.near",
      displayName: "sam",
      avatarUrl: SAM_IMAGE,
      score: 6,
      // The account's handles' decisions together, as its counts are.
      reputation: expect.objectContaining({ approvedCount: 2, rejectedCount: 1, retractedCount: 0 }),
    });
    const byName = Object.fromEntries(
      rest.map((entry: { curatorUsername: string }) => [entry.curatorUsername, entry]),
    );
    expect(byName.leader).toMatchObject({
      userId: "lee.near",
      displayName: "@leader",
      avatarUrl: null,
      score: 4,
    });
    expect(byName[DANA_TELEGRAM]).toMatchObject({
      userId: null,
      displayName: "@dana",
      avatarUrl: null,
      score: 3,
    });
    const inFeed = await server.json("/api/leaderboard?feedId=web3");
    expect(
      inFeed.body.data.map((entry: { displayName: string; score: number }) => [
        entry.displayName,
        entry.score,
      ]),
    ).toEqual([
      ["sam", 2],
      ["@leader", 2],
      ["@dana", 1],
    ]);
    const handles = body.data.flatMap((entry: { handles: string[] }) => entry.handles);
    expect(new Set(handles).size).toBe(handles.length);
    expect(rest.map((entry: { curatorUsername: string }) => entry.curatorUsername)).toEqual([
      "leader",
      DANA_TELEGRAM,
      DANA_MASTODON,
    ]);
  });

  it("never merges the same name on two networks when nobody linked them", async () => {
    const { body } = await server.json("/api/leaderboard");
    const danas = body.data.filter((entry: { curatorUsername: string }) =>
      entry.curatorUsername.endsWith(":dana"),
    );
    expect(danas).toEqual([
      expect.objectContaining({
        curatorUsername: DANA_TELEGRAM,
        handles: [DANA_TELEGRAM],
        submissionCount: 3,
      }),
      expect.objectContaining({
        curatorUsername: DANA_MASTODON,
        handles: [DANA_MASTODON],
        submissionCount: 1,
      }),
    ]);
  });

  it("ranks the merged account within the limit although each of its handles alone would fall outside it", async () => {
    const { body } = await server.json("/api/leaderboard?limit=1");
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ curatorUsername: SAM.bluesky, submissionCount: 6 });
  });

  it("merges in every scope: one feed, this month, this week and today", async () => {
    const ai = await server.json("/api/leaderboard?feedId=ai&limit=1");
    expect(ai.body.data).toEqual([
      expect.objectContaining({
        handles: [SAM.bluesky, SAM.mastodon, SAM.x],
        submissionCount: 4,
        feedSubmissions: [{ feedId: "ai", count: 4, totalInFeed: 9 }],
      }),
    ]);
    for (const timeRange of ["month", "week", "today"]) {
      const { body } = await server.json(`/api/leaderboard?timeRange=${timeRange}&limit=2`);
      expect(body.data, timeRange).toEqual([
        expect.objectContaining({ curatorUsername: SAM.bluesky, submissionCount: 6, approvalCount: 2 }),
        expect.objectContaining({ curatorUsername: "leader", handles: ["leader"], submissionCount: 4 }),
      ]);
    }
  });

  it("keeps an account that linked one handle apart from the same name on another network", async () => {
    const [other] = await server.db
      .insert(users)
      .values({ nearAccountId: "dana.near", username: "dana" })
      .returning();
    await server.db.insert(linkedAccounts).values({
      userId: other.id,
      platformName: "telegram",
      platformUserId: "777",
      username: "dana",
    });
    const { body } = await server.json("/api/leaderboard");
    const dana = body.data.find((entry: { handles: string[] }) => entry.handles.includes(DANA_TELEGRAM));
    expect(dana).toMatchObject({ handles: [DANA_TELEGRAM], submissionCount: 3 });
    expect(body.data).toContainEqual(
      expect.objectContaining({ curatorUsername: DANA_MASTODON, handles: [DANA_MASTODON] }),
    );
  });
});
