import { handleOnPlatform } from "@curate/core";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { signIn } from "../../test/session.ts";
import { linkedAccounts, users } from "../db/schema.ts";

/**
 * One notion of "a curator" (decision 0019): the handles one Curate account linked, on any network, are one person on
 * the leaderboard, on a feed's Top Curators and in that person's Curator For.
 */
let server: TestServer;
let samCookie: string;

const SAM = {
  x: handleOnPlatform("twitter", "sam_reads"),
  mastodon: handleOnPlatform("mastodon", "sam@fosstodon.org"),
  telegram: handleOnPlatform("telegram", "sam_tg"),
};

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  for (const [id, name] of [
    ["ai", "AI"],
    ["climate", "Climate"],
    ["desci", "DeSci"],
    ["web3", "Web3"],
  ]) {
    await insertFeed(server.db, { id, name });
  }
  const signedIn = await signIn(server);
  samCookie = signedIn.cookie;
  const [sam] = await server.db.select().from(users).where(eq(users.nearAccountId, signedIn.accountId));
  await server.db.insert(linkedAccounts).values([
    { userId: sam.id, platformName: "twitter", platformUserId: "1001", username: "sam_reads" },
    { userId: sam.id, platformName: "mastodon", platformUserId: "109001", username: "sam@fosstodon.org" },
    { userId: sam.id, platformName: "telegram", platformUserId: "555", username: "sam_tg" },
  ]);
  const curate = (curator: string, feedId: string) =>
    insertSubmission(server.db, { curatorUsername: curator, submittedAt: new Date(), feeds: [{ feedId }] });
  await curate(SAM.x, "ai");
  await curate(SAM.mastodon, "web3");
  await curate(SAM.mastodon, "web3");
  await curate(SAM.x, "web3");
  await curate(SAM.telegram, "climate");
  // Someone else who happens to be called sam_tg on X: not Sam, whose sam_tg is on Telegram.
  await curate("sam_tg", "desci");
  for (const other of ["ana", "ben", "cy", "dee", "eve", "fay"]) await curate(other, "web3");
});

afterAll(() => server.close());

describe("a curator is one person across networks", () => {
  it("lists in Curator For every feed any of the user's linked handles submitted to, on every network", async () => {
    const { status, body } = await server.json("/api/activity/feeds/curated-by/me", {
      headers: { Cookie: samCookie },
    });
    expect(status).toBe(200);
    // Climate through Telegram, Web3 through Mastodon and X; never DeSci, where a namesake on X curates.
    expect(body.data.map((feed: { id: string }) => feed.id)).toEqual(["ai", "climate", "web3"]);
  });

  it("lists the person once in the feed's Top Curators, with the handles they curated from", async () => {
    const { status, body } = await server.json("/api/leaderboard?feedId=web3&limit=5");
    expect(status).toBe(200);
    const entries = body.data as Array<{ curatorUsername: string; handles: string[]; score: number }>;
    expect(entries).toHaveLength(5);
    const sams = entries.filter((entry) =>
      entry.handles.some((handle) => Object.values(SAM).includes(handle)),
    );
    expect(sams).toEqual([
      expect.objectContaining({ curatorUsername: SAM.mastodon, handles: [SAM.mastodon, SAM.x], score: 3 }),
    ]);
    expect(new Set(entries.map((entry) => entry.curatorUsername)).size).toBe(entries.length);
  });
});
