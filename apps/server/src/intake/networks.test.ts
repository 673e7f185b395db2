import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { linkedAccounts, submissionFeeds, submissions, users } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import type { MentionSource, SocialPost } from "../sources/types.ts";
import { runMentionIntake } from "./service.ts";

/** A network's mentions as its source hands them over: intake sees only the interface. */
function networkSource(platform: SocialPost["platform"], botHandle: string, mentionOptional = false) {
  const posts: SocialPost[] = [];
  let clock = Date.UTC(2026, 10, 20);
  const source: MentionSource & { post(p: Omit<SocialPost, "platform" | "createdAt" | "url">): SocialPost } =
    {
      key: `${platform}:mentions`,
      platform,
      botHandle,
      mentionOptional,
      async fetchMentions() {
        return { posts: [...posts], cursor: null };
      },
      post(fields) {
        clock += 1000;
        const post = {
          platform,
          url: `https://example.test/${fields.id}`,
          createdAt: new Date(clock),
          ...fields,
        };
        posts.push(post);
        return post;
      },
    };
  return source;
}

let server: TestServer;
const bluesky = networkSource("bluesky", "curate.bsky.social");
const mastodon = networkSource("mastodon", "curate@mastodon.social");
const telegram = networkSource("telegram", "curate_bot", true);
const x = networkSource("twitter", "curatebot");

beforeAll(async () => {
  server = await startTestServer({ BOT_HANDLE: "curatebot" });
  await insertFeed(server.db, {
    id: "commons",
    approvers: { bluesky: ["carol.bsky.social"], telegram: ["dana"] },
    blacklist: { mastodon: ["spam@bad.host"] },
  });
  const [carol] = await server.db.insert(users).values({ nearAccountId: "carol.near" }).returning();
  await server.db.insert(linkedAccounts).values([
    {
      userId: carol.id,
      platformName: "bluesky",
      platformUserId: "did:plc:carol",
      username: "carol.bsky.social",
    },
    { userId: carol.id, platformName: "mastodon", platformUserId: "109", username: "carol@fosstodon.org" },
  ]);
});

afterAll(() => server.close());

const link = (key: string) =>
  server.db.select().from(submissionFeeds).where(eq(submissionFeeds.submissionId, key));

describe("one queue fed by every network", () => {
  it("keeps a post's key per network, so equal ids on two networks stay two posts", async () => {
    const original = x.post({ id: "777", text: "an X post", authorId: "1", authorUsername: "alice" });
    x.post({
      id: "778",
      text: "!submit @curatebot #commons",
      authorId: "2",
      authorUsername: "sam",
      inReplyToId: original.id,
      repliedTo: original,
    });
    const sameId = telegram.post({
      id: "777",
      text: "a Telegram message",
      authorId: "9",
      authorUsername: "alice",
    });
    telegram.post({
      id: "779",
      text: "!submit #commons",
      authorId: "10",
      authorUsername: "sam",
      inReplyToId: sameId.id,
      repliedTo: sameId,
    });
    await runMentionIntake(server.db, x);
    await runMentionIntake(server.db, telegram);

    const stored = await server.db.select().from(submissions).where(eq(submissions.username, "alice"));
    expect(stored.map((row) => [row.tweetId, row.platform, row.content]).sort()).toEqual([
      ["777", "twitter", "an X post"],
      ["telegram:777", "telegram", "a Telegram message"],
    ]);
    // Two curators named sam on two networks are two people in every count.
    expect((await link("777"))[0].curatorUsername).toBe("sam");
    expect((await link("telegram:777"))[0].curatorUsername).toBe("telegram:sam");
  });

  it("submits on Bluesky, and a linked approver approves it from Mastodon by naming the post, once", async () => {
    const post = bluesky.post({
      id: "at://did:plc:erin/app.bsky.feed.post/3k1",
      text: "Open protocols win https://example.org/a-long-article",
      authorId: "did:plc:erin",
      authorUsername: "erin.bsky.social",
      authorDisplayName: "Erin",
      media: [{ url: "https://cdn.example/img.jpg", type: "image", alt: "a chart" }],
    });
    const submit = bluesky.post({
      id: "at://did:plc:finn/app.bsky.feed.post/3k2",
      text: "!submit @curate.bsky.social #commons worth it",
      authorId: "did:plc:finn",
      authorUsername: "finn.bsky.social",
      inReplyToId: post.id,
      repliedTo: post,
    });
    await runMentionIntake(server.db, bluesky);
    const key = `bluesky:${post.id}`;
    expect((await link(key))[0]).toMatchObject({
      status: "pending",
      curatorUsername: "bluesky:finn.bsky.social",
    });

    // Carol is an approver by her Bluesky handle; she answers from Mastodon, which she linked to the same account.
    // The reply names the curator's post by its id on Bluesky's side: a moderation reply answers the submit post.
    mastodon.post({
      id: "https://fosstodon.org/users/carol/statuses/1",
      text: "@curate@mastodon.social !approve",
      authorId: "109",
      authorUsername: "carol@fosstodon.org",
      inReplyToId: submit.id,
    });
    await runMentionIntake(server.db, mastodon);
    // A reply on Mastodon cannot answer a Bluesky post: its parent id is keyed to Mastodon, so nothing moved.
    expect((await link(key))[0].status).toBe("pending");

    // She names the post by its address instead: that decides it from any network.
    mastodon.post({
      id: "https://fosstodon.org/users/carol/statuses/2",
      text: `@curate@mastodon.social !approve #commons ${post.url} lovely`,
      authorId: "109",
      authorUsername: "carol@fosstodon.org",
    });
    await runMentionIntake(server.db, mastodon);
    await runMentionIntake(server.db, mastodon);
    const approved = await link(key);
    expect(approved).toHaveLength(1);
    expect(approved[0].status).toBe("approved");
    const [history] = await queryRows<{ n: number; by: string; note: string }>(
      server.db,
      sql`select count(*)::int as n, min(moderator_account_id) as by, min(note) as note from moderation_history
        where submission_id = ${key}`,
    );
    expect(history).toEqual({ n: 1, by: "mastodon:carol@fosstodon.org", note: "lovely" });
    const [row] = await server.db.select().from(submissions).where(eq(submissions.tweetId, key));
    expect(row).toMatchObject({
      platform: "bluesky",
      authorDisplayName: "Erin",
      media: [{ url: "https://cdn.example/img.jpg", type: "image", alt: "a chart" }],
    });
  });

  it("takes an approver listed on one network as an approver there only, unless linked", async () => {
    const post = mastodon.post({
      id: "https://mastodon.social/users/gil/statuses/5",
      text: "A fediverse post",
      authorId: "5",
      authorUsername: "gil@mastodon.social",
    });
    const submit = mastodon.post({
      id: "https://mastodon.social/users/hal/statuses/6",
      text: "@curate@mastodon.social !submit @curate@mastodon.social #commons",
      authorId: "6",
      authorUsername: "hal@mastodon.social",
      inReplyToId: post.id,
      repliedTo: post,
    });
    // "dana" approves on Telegram; a Mastodon account of the same name is nobody.
    mastodon.post({
      id: "https://mastodon.social/users/dana/statuses/7",
      text: "!approve",
      authorId: "7",
      authorUsername: "dana",
      inReplyToId: submit.id,
    });
    await runMentionIntake(server.db, mastodon);
    const key = `mastodon:${post.id}`;
    expect((await link(key))[0].status).toBe("pending");

    // Carol's Mastodon handle is linked to the account whose Bluesky handle approves: she may decide here.
    mastodon.post({
      id: "https://fosstodon.org/users/carol/statuses/8",
      text: "!approve #commons",
      authorId: "109",
      authorUsername: "carol@fosstodon.org",
      inReplyToId: submit.id,
    });
    await runMentionIntake(server.db, mastodon);
    expect((await link(key))[0].status).toBe("approved");
  });

  it("applies a blacklist on its own network", async () => {
    const post = mastodon.post({
      id: "https://bad.host/s/1",
      text: "spam",
      authorId: "66",
      authorUsername: "x1",
    });
    mastodon.post({
      id: "https://bad.host/s/2",
      text: "!submit @curate@mastodon.social #commons",
      authorId: "67",
      authorUsername: "spam@bad.host",
      inReplyToId: post.id,
      repliedTo: post,
    });
    await runMentionIntake(server.db, mastodon);
    expect(await link(`mastodon:${post.id}`)).toEqual([]);
  });

  it("lists one network's posts with ?platform=", async () => {
    const page = await server.json("/api/submissions/feed/commons?platform=bluesky");
    expect(page.status).toBe(200);
    const items = page.body.data.items as Array<{ tweetId: string; platform: string; url: string }>;
    expect(items.map((item) => item.platform)).toEqual(["bluesky"]);
    expect(items[0].url).toBe("https://example.test/at://did:plc:erin/app.bsky.feed.post/3k1");
    const all = await server.json("/api/submissions?platform=telegram");
    expect((all.body.data.items as Array<{ tweetId: string }>).map((item) => item.tweetId)).toEqual([
      "telegram:777",
    ]);
    expect((await server.json("/api/submissions?platform=myspace")).status).toBe(400);
  });

  it("finds a curator on another network by the handle as the app shows it, however short the prefix", async () => {
    const bluesky = "bluesky:at://did:plc:erin/app.bsky.feed.post/3k1";
    for (const q of ["@fi", "fi", "@finn.bsky"]) {
      const found = await server.json(`/api/submissions?q=${encodeURIComponent(q)}`);
      expect(
        (found.body.data.items as Array<{ tweetId: string }>).map((item) => item.tweetId),
        q,
      ).toEqual([bluesky]);
      const scoped = await server.json(`/api/submissions/feed/commons?q=${encodeURIComponent(q)}`);
      expect(scoped.body.data.pagination.totalCount, q).toBe(1);
    }
  });
});
