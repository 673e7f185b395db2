import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { moderationHistory } from "../db/schema.ts";

/**
 * Curators and moderators as the API names them (decision 0032): their network, their handle there and their profile,
 * beside the stored keys it has always answered.
 */
let server: TestServer;
let tweetId: string;

const MO = "mastodon:mo@social.example";
const TG = "telegram:tg_cur";

beforeAll(async () => {
  server = await startTestServer();
  await insertFeed(server.db, { id: "ai", name: "AI" });
  await insertFeed(server.db, { id: "web3", name: "Web3" });
  ({ tweetId } = await insertSubmission(server.db, {
    curatorUsername: MO,
    feeds: [{ feedId: "ai" }, { feedId: "web3", curatorUsername: TG }],
  }));
  await server.db.insert(moderationHistory).values([
    {
      submissionId: tweetId,
      feedId: "ai",
      moderatorAccountId: TG,
      moderatorAccountIdType: "platform_username",
      source: "platform_comment",
      action: "approve",
    },
    {
      submissionId: tweetId,
      feedId: "web3",
      moderatorAccountId: "amy.near",
      moderatorAccountIdType: "near",
      source: "ui",
      action: "reject",
    },
  ]);
});

afterAll(() => server.close());

const MO_FIELDS = {
  curatorUsername: MO,
  curatorNetwork: "mastodon",
  curatorHandle: "mo@social.example",
  curatorProfileUrl: "https://social.example/@mo",
};
const TG_FIELDS = {
  curatorUsername: TG,
  curatorNetwork: "telegram",
  curatorHandle: "tg_cur",
  curatorProfileUrl: "https://t.me/tg_cur",
};

describe("people in submission answers", () => {
  it("answers each curator's network, handle and profile beside the stored key, per feed too", async () => {
    const { status, body } = await server.json(`/api/submissions/${tweetId}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject(MO_FIELDS);
    const feeds = Object.fromEntries(
      (body.data.feeds as Array<{ feedId: string }>).map((feed) => [feed.feedId, feed]),
    );
    expect(feeds.ai).toMatchObject(MO_FIELDS);
    expect(feeds.web3).toMatchObject(TG_FIELDS);
    // A feed's list names the curator of its own link.
    const inWeb3 = await server.json("/api/submissions/feed/web3");
    expect(inWeb3.body.data.items[0]).toMatchObject(TG_FIELDS);
  });

  it("answers each moderator as a person on their network, or as a Curate account", async () => {
    const { body } = await server.json(`/api/submissions/single/${tweetId}`);
    expect(
      body.data.moderationHistory.map((record: Record<string, unknown>) => ({
        moderatorAccountId: record.moderatorAccountId,
        moderatorNetwork: record.moderatorNetwork,
        moderatorHandle: record.moderatorHandle,
        moderatorProfileUrl: record.moderatorProfileUrl,
      })),
    ).toEqual([
      {
        moderatorAccountId: TG,
        moderatorNetwork: "telegram",
        moderatorHandle: "tg_cur",
        moderatorProfileUrl: "https://t.me/tg_cur",
      },
      {
        moderatorAccountId: "amy.near",
        moderatorNetwork: null,
        moderatorHandle: "amy.near",
        moderatorProfileUrl: null,
      },
    ]);
  });

  it("says in the OpenAPI document that the stored keys stay for existing clients", async () => {
    const { body } = await server.json("/api/openapi.json");
    const doc = JSON.stringify(body);
    expect(doc).toContain(
      "The curator's stored key: the bare handle on X, `<network>:<handle>` elsewhere. Kept so existing clients keep working",
    );
    expect(doc).toContain("The moderator's stored id");
    expect(doc).toContain("curatorProfileUrl");
    expect(doc).toContain("moderatorProfileUrl");
  });
});
