import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { linkCodes, linkedAccounts, submissionFeeds, users } from "../db/schema.ts";
import { runMentionIntake } from "../intake/service.ts";
import type { MentionSource, SocialPost } from "../sources/types.ts";

let server: TestServer;
const owner = newKey();
const thief = newKey();
const cookies: Record<string, string> = {};
const posts: SocialPost[] = [];
const mastodon: MentionSource = {
  key: "mastodon:mentions",
  platform: "mastodon",
  botHandle: "curate@mastodon.social",
  fetchMentions: async () => ({ posts: posts.splice(0), cursor: null }),
};
let seq = 0;
const toot = (author: string, authorId: string, text: string, inReplyToId?: string) => {
  seq += 1;
  posts.push({
    platform: "mastodon",
    id: `https://mastodon.social/users/${author}/statuses/${seq}`,
    text,
    authorId,
    authorUsername: `${author}@mastodon.social`,
    url: `https://mastodon.social/@${author}/${seq}`,
    createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, seq)),
    inReplyToId: inReplyToId ?? null,
  });
};

const newCode = (role: "owner" | "thief") =>
  server.json("/api/users/me/link-codes", { method: "POST", headers: sessionHeaders(server, cookies[role]) });

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  cookies.owner = (await signIn(server, owner)).cookie;
  cookies.thief = (await signIn(server, thief)).cookie;
  await insertFeed(server.db, { id: "fedi", createdBy: owner.implicitAccountId });
});

afterAll(() => server.close());

const linksOf = async (key: typeof owner) => {
  const [user] = await server.db.select().from(users).where(eq(users.nearAccountId, key.implicitAccountId));
  return server.db
    .select({ platformName: linkedAccounts.platformName, username: linkedAccounts.username })
    .from(linkedAccounts)
    .where(eq(linkedAccounts.userId, user.id));
};

describe("linking a handle with a one-time code", () => {
  it("needs a session", async () => {
    const answer = await server.json("/api/users/me/link-codes", {
      method: "POST",
      headers: { Origin: server.baseUrl },
    });
    expect(answer.status).toBe(401);
  });

  it("links the handle that posts the code, once, and lets it moderate as its account", async () => {
    const first = await newCode("owner");
    expect(first.status).toBe(201);
    const code = await newCode("owner");
    expect(code.body.data.code).toMatch(/^CUR-[A-Z2-9]{8}$/);
    expect(code.body.data.command).toBe(`!link ${code.body.data.code}`);
    expect(code.body.data.code).not.toBe(first.body.data.code);

    // Asking again replaced the first code: it links nobody.
    toot("olly", "11", `@curate@mastodon.social !link ${first.body.data.code}`);
    await runMentionIntake(server.db, mastodon);
    expect(await linksOf(owner)).toEqual([]);

    toot("olly", "11", `@curate@mastodon.social !link ${code.body.data.code.toLowerCase()}`);
    await runMentionIntake(server.db, mastodon);
    expect(await linksOf(owner)).toEqual([{ platformName: "mastodon", username: "olly@mastodon.social" }]);

    // Spent: someone else posting it later links nothing.
    toot("mallory", "66", `@curate@mastodon.social !link ${code.body.data.code}`);
    await runMentionIntake(server.db, mastodon);
    expect((await linksOf(owner)).map((link) => link.username)).toEqual(["olly@mastodon.social"]);

    // The linked handle now decides for the feed its account owns, from Mastodon.
    await insertSubmission(server.db, {
      tweetId: "mastodon:https://mastodon.social/users/pat/statuses/1",
      feeds: [{ feedId: "fedi" }],
    });
    await server.db
      .update(submissionFeeds)
      .set({ curatorTweetId: "mastodon:https://mastodon.social/users/cur/statuses/2" })
      .where(eq(submissionFeeds.feedId, "fedi"));
    toot("olly", "11", "@curate@mastodon.social !approve", "https://mastodon.social/users/cur/statuses/2");
    await runMentionIntake(server.db, mastodon);
    const [link] = await server.db
      .select()
      .from(submissionFeeds)
      .where(eq(submissionFeeds.submissionId, "mastodon:https://mastodon.social/users/pat/statuses/1"));
    expect(link.status).toBe("approved");
  });

  it("refuses an expired code", async () => {
    const code = await newCode("thief");
    await server.db.update(linkCodes).set({ expiresAt: sql`now() - interval '1 minute'` });
    toot("tess", "77", `!link ${code.body.data.code}`);
    await runMentionIntake(server.db, mastodon);
    expect(await linksOf(thief)).toEqual([]);
  });
});
