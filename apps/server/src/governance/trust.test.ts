import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { curatorTrust, moderationHistory, submissionFeeds } from "../db/schema.ts";
import { runMentionIntake } from "../intake/service.ts";
import { verifyLog } from "../moderation-log/verify.ts";
import type { MentionSource, SocialPost } from "../sources/types.ts";

/** X mentions as the source hands them over. */
function xSource() {
  const posts: SocialPost[] = [];
  let clock = Date.UTC(2026, 10, 20);
  let id = 500;
  return {
    key: "twitter:mentions",
    platform: "twitter" as const,
    botHandle: "curatebot",
    mentionOptional: false,
    async fetchMentions() {
      return { posts: [...posts], cursor: null };
    },
    /** Sam submits a fresh post to the feeds named; answers the post's key. */
    submit(feeds: string) {
      clock += 2000;
      const post: SocialPost = {
        platform: "twitter",
        id: String(++id),
        text: `A find number ${id}`,
        authorId: "a1",
        authorUsername: "author",
        url: `https://x.com/author/status/${id}`,
        createdAt: new Date(clock - 1000),
      };
      posts.push(post, {
        platform: "twitter",
        id: String(++id),
        text: `!submit @curatebot ${feeds}`,
        authorId: "s1",
        authorUsername: "sam",
        url: `https://x.com/sam/status/${id}`,
        createdAt: new Date(clock),
        inReplyToId: post.id,
        repliedTo: post,
      });
      return post.id;
    },
    /** `author` replies to the post with this id. */
    reply(author: string, inReplyToId: string, text: string) {
      clock += 1000;
      posts.push({
        platform: "twitter",
        id: String(++id),
        text,
        authorId: `id-${author}`,
        authorUsername: author,
        url: `https://x.com/${author}/status/${id}`,
        createdAt: new Date(clock),
        inReplyToId,
      });
    },
  } satisfies MentionSource & {
    submit(feeds: string): string;
    reply(author: string, inReplyToId: string, text: string): void;
  };
}

let server: TestServer;
const x = xSource();
const ownerKey = newKey();
const modKey = newKey();
let owner: string;
let mod: string;

const trustPolicy = {
  enabled: true,
  minApproved: 3,
  minApprovalRate: 75,
  lastDecided: 10,
  withinDays: 30,
  confirmAfterDays: 7,
};

function feedConfig(id: string, moderation: Record<string, unknown>) {
  return {
    id,
    name: `Feed ${id}`,
    description: `About ${id}`,
    outputs: { stream: { enabled: true } },
    moderation: { approvers: { twitter: [modKey.implicitAccountId] }, ...moderation },
  };
}

beforeAll(async () => {
  server = await startTestServer({
    BOT_HANDLE: "curatebot",
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    WRITE_RATE_LIMIT_PER_MINUTE: "1000",
  });
  owner = (await signIn(server, ownerKey)).cookie;
  mod = (await signIn(server, modKey)).cookie;
  for (const [id, moderation] of [
    ["earned", { trust: trustPolicy }],
    ["plain", {}],
    [
      "pinnedcouncil",
      {
        quorum: { approvals: 2, rejection: "veto" },
        trust: { ...trustPolicy, pinned: { trusted: ["sam"] } },
      },
    ],
    [
      "confirmed",
      {
        approvers: { twitter: [modKey.implicitAccountId, "tia"] },
        quorum: { approvals: 2, rejection: "veto" },
        trust: { ...trustPolicy, minApproved: 1 },
      },
    ],
  ] as const) {
    await insertFeed(server.db, {
      id,
      createdBy: ownerKey.implicitAccountId,
      config: feedConfig(id, moderation),
    });
  }
  // Sam's record in "earned": three approvals by a moderator, and two posts still waiting.
  for (const id of ["sam-a1", "sam-a2", "sam-a3"]) {
    await insertSubmission(server.db, {
      tweetId: id,
      curatorUsername: "sam",
      feeds: [{ feedId: "earned", status: "approved" }],
    });
  }
  await insertSubmission(server.db, {
    tweetId: "tia-1",
    curatorUsername: "tia",
    feeds: [{ feedId: "confirmed" }],
  });
  for (const id of ["sam-p1", "sam-p2", "sam-p3"]) {
    await insertSubmission(server.db, { tweetId: id, curatorUsername: "sam", feeds: [{ feedId: "earned" }] });
  }
});

afterAll(() => server.close());

const statusIn = async (feedId: string, submissionId: string) => {
  const [link] = await server.db
    .select({ status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(and(eq(submissionFeeds.feedId, feedId), eq(submissionFeeds.submissionId, submissionId)));
  return link?.status;
};

const moderate = (submissionId: string, action: "approve" | "reject", feedId = "earned") =>
  server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, mod),
    body: JSON.stringify({ feedId, submissionId, action }),
  });

const trustOf = async (query: string) => (await server.json(`/api/trust?${query}`)).body.data.items;

async function logActions(feedId: string, action: string) {
  const { body } = await server.json(`/api/feeds/${feedId}/log?action=${action}&order=oldest`);
  return body.data.items.map(
    (entry: { fields: { details: { value: unknown } } }) => entry.fields.details.value,
  );
}

async function saveTrust(trust: Record<string, unknown>) {
  const current = (await server.json("/api/feeds/earned")).body.data;
  const saved = await server.json("/api/feeds/earned", {
    method: "PUT",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ ...current.config, moderation: { ...current.config.moderation, trust } }),
  });
  expect(saved.status).toBe(200);
}

describe("earned trust", () => {
  it("promotes a curator over the bar, whose submission then counts as an approval — only where trust is on", async () => {
    const post = x.submit("#earned #plain");
    await runMentionIntake(server.db, x);

    expect(await statusIn("earned", post)).toBe("approved");
    expect(await statusIn("plain", post)).toBe("pending");
    const [history] = await server.db
      .select()
      .from(moderationHistory)
      .where(and(eq(moderationHistory.submissionId, post), eq(moderationHistory.feedId, "earned")));
    expect(history).toMatchObject({ source: "auto_approval", moderatorAccountId: "sam", counts: false });

    // The auto-approval itself counts for nothing yet: still 3 of 3.
    expect(await trustOf("feedId=earned")).toEqual([
      expect.objectContaining({
        curator: "sam",
        trusted: true,
        pinned: null,
        approved: 3,
        decided: 3,
        explanation: "3 of 3 approved in the last 30 days",
      }),
    ]);
    expect(await logActions("earned", "promote")).toEqual([
      { approved: 3, decided: 3, explanation: "3 of 3 approved in the last 30 days", pinned: null },
    ]);
    // Trust is off in "plain": nobody is evaluated there.
    expect(await trustOf("feedId=plain")).toEqual([]);
    expect(await server.db.select().from(curatorTrust).where(eq(curatorTrust.feedId, "plain"))).toEqual([]);
  });

  it("demotes when rejections take the rate below the bar, and says why", async () => {
    await moderate("sam-p1", "reject");
    // 3 of 4 is exactly 75 %: still trusted.
    expect((await trustOf("feedId=earned"))[0]).toMatchObject({ trusted: true, approved: 3, decided: 4 });
    await moderate("sam-p2", "reject");
    expect((await trustOf("feedId=earned"))[0]).toMatchObject({
      trusted: false,
      approved: 3,
      decided: 5,
      explanation: "3 of 5 approved in the last 30 days",
    });
    expect((await logActions("earned", "demote")).at(-1)).toMatchObject({
      explanation: "3 of 5 approved in the last 30 days",
    });

    const post = x.submit("#earned");
    await runMentionIntake(server.db, x);
    expect(await statusIn("earned", post)).toBe("pending");
  });

  it("counts an auto-approval once it stood unretracted for the policy's days", async () => {
    await server.db.execute(
      sql`update moderation_history set created_at = now() - interval '8 days'
        where feed_id = 'earned' and source = 'auto_approval'`,
    );
    await moderate("sam-p3", "approve");
    // 3 seeded + the aged auto-approval + this one, of 7 decided.
    expect((await trustOf("feedId=earned"))[0]).toMatchObject({ trusted: false, approved: 5, decided: 7 });
  });

  it("lets the owners pin a curator in and out, taking effect when saved", async () => {
    await saveTrust({ ...trustPolicy, pinned: { trusted: ["sam"] } });
    expect((await trustOf("feedId=earned"))[0]).toMatchObject({
      trusted: true,
      pinned: "trusted",
      explanation: "Pinned as trusted by the feed's owners",
    });
    const post = x.submit("#earned");
    await runMentionIntake(server.db, x);
    expect(await statusIn("earned", post)).toBe("approved");

    await saveTrust({ ...trustPolicy, pinned: { untrusted: ["@sam"] } });
    expect((await trustOf("feedId=earned"))[0]).toMatchObject({
      trusted: false,
      pinned: "untrusted",
      explanation: "Pinned as not trusted by the feed's owners",
    });
    expect((await logActions("earned", "promote")).at(-1)).toMatchObject({ pinned: "trusted" });
    expect((await logActions("earned", "demote")).at(-1)).toMatchObject({ pinned: "untrusted" });

    // The curator's profile lists their standing in every feed with trust on.
    expect(await trustOf("curator=sam")).toEqual([
      expect.objectContaining({ feedId: "earned", feedName: "Feed earned", trusted: false }),
    ]);
    expect((await verifyLog(`${server.baseUrl}/api/feeds/earned/log`)).report.break).toBeNull();
  });

  it("counts a trusted curator's submission as one approval, never the whole of a larger quorum", async () => {
    const post = x.submit("#pinnedcouncil");
    await runMentionIntake(server.db, x);
    const { body } = await server.json(`/api/submissions/single/${post}`);
    expect(body.data.feeds[0]).toMatchObject({
      status: "pending",
      tally: { required: 2, votes: [{ voter: "@sam", action: "approve" }] },
    });
    const settled = await moderate(post, "approve", "pinnedcouncil");
    expect(settled.body.data).toMatchObject({ status: "approved", tally: { votes: [{}, {}] } });
  });

  it("counts a curator's own approval once a distinct approver confirmed the post", async () => {
    // The moderator votes first; Tia, an approver, settles her own post by reply: a self-decision, confirmed.
    expect((await moderate("tia-1", "approve", "confirmed")).body.data.status).toBe("pending");
    x.reply("tia", "9tia-1", "!approve @curatebot");
    await runMentionIntake(server.db, x);
    expect(await statusIn("confirmed", "tia-1")).toBe("approved");
    const [history] = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, "tia-1"));
    expect(history).toMatchObject({ moderatorAccountId: "tia", counts: false });
    expect(await trustOf("feedId=confirmed")).toEqual([
      expect.objectContaining({ curator: "tia", trusted: true, approved: 1, decided: 1 }),
    ]);
  });

  it("answers 400 to a trust query naming neither a feed nor a curator", async () => {
    const { status, body } = await server.json("/api/trust");
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
  });
});
