import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey, type TestKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { linkedAccounts, moderationHistory, moderationVotes, processingJobs, users } from "../db/schema.ts";
import { runMentionIntake } from "../intake/service.ts";
import { verifyLog } from "../moderation-log/verify.ts";
import type { MentionSource, SocialPost } from "../sources/types.ts";

/** A network's mentions as its source hands them over, oldest first. */
function networkSource(platform: SocialPost["platform"], botHandle: string) {
  const posts: SocialPost[] = [];
  let clock = Date.UTC(2026, 10, 20);
  const source: MentionSource & { post(p: Omit<SocialPost, "platform" | "createdAt" | "url">): SocialPost } =
    {
      key: `${platform}:mentions`,
      platform,
      botHandle,
      mentionOptional: false,
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
const keys: Record<"owner" | "carol" | "dave" | "erin" | "fay", TestKey> = {
  owner: newKey(),
  carol: newKey(),
  dave: newKey(),
  erin: newKey(),
  fay: newKey(),
};
const cookies = {} as Record<keyof typeof keys, string>;
const account = (who: keyof typeof keys) => keys[who].implicitAccountId;

function feedConfig(id: string, moderation: Record<string, unknown>) {
  return {
    id,
    name: `Feed ${id}`,
    description: `About ${id}`,
    outputs: { stream: { enabled: true } },
    moderation: {
      approvers: {
        bluesky: ["carol.bsky.social"],
        twitter: [account("dave"), account("erin"), account("fay")],
      },
      ...moderation,
    },
  };
}

async function feed(id: string, moderation: Record<string, unknown>) {
  await insertFeed(server.db, { id, createdBy: account("owner"), config: feedConfig(id, moderation) });
}

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", WRITE_RATE_LIMIT_PER_MINUTE: "1000" });
  for (const who of Object.keys(keys) as Array<keyof typeof keys>) {
    cookies[who] = (await signIn(server, keys[who])).cookie;
  }
  // Carol approves by her Bluesky handle and has linked her Mastodon handle to the same Curate account.
  const [carol] = await server.db
    .select()
    .from(users)
    .where(eq(users.nearAccountId, account("carol")));
  await server.db.insert(linkedAccounts).values([
    {
      userId: carol.id,
      platformName: "bluesky",
      platformUserId: "did:plc:carol",
      username: "carol.bsky.social",
    },
    { userId: carol.id, platformName: "mastodon", platformUserId: "109", username: "carol@fosstodon.org" },
  ]);
  await feed("council", { quorum: { approvals: 2, rejection: "veto" }, undoWindowSeconds: 300 });
  await feed("vetoed", { quorum: { approvals: 3, rejection: "veto" } });
  await feed("majority", { quorum: { approvals: 3, rejection: "majority" } });
  await feed("shifting", { quorum: { approvals: 3, rejection: "veto" } });
  await feed("single", {});
  await insertFeed(server.db, {
    id: "acked",
    createdBy: account("owner"),
    config: {
      ...feedConfig("acked", { quorum: { approvals: 2, rejection: "veto" } }),
      acknowledgements: { networks: { twitter: true }, onSubmit: false, onApprove: true },
    },
  });
  await feed("quiet", { quorum: { approvals: 2, rejection: "majority" }, nameRejectersInLog: false });
  for (const [id, feedId] of [
    ["v1", "vetoed"],
    ["m1", "majority"],
    ["m2", "majority"],
    ["s1", "shifting"],
    ["s2", "shifting"],
    ["one", "single"],
    ["b1", "council"],
    ["b2", "council"],
    ["q1", "quiet"],
    ["ack1", "acked"],
  ]) {
    await insertSubmission(server.db, { tweetId: id, feeds: [{ feedId }] });
  }
});

afterAll(() => server.close());

const vote = (who: keyof typeof keys, feedId: string, submissionId: string, action: "approve" | "reject") =>
  server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, cookies[who]),
    body: JSON.stringify({ feedId, submissionId, action }),
  });

async function linkOf(feedId: string, submissionId: string) {
  const { body } = await server.json(`/api/submissions/single/${encodeURIComponent(submissionId)}`);
  return body.data.feeds.find((link: { feedId: string }) => link.feedId === feedId);
}

describe("quorum decisions", () => {
  it("counts one linked person's votes from two networks once, and publishes when k distinct people approved", async () => {
    const post = bluesky.post({
      id: "at://did:plc:erin/app.bsky.feed.post/q1",
      text: "A post worth a council",
      authorId: "did:plc:erin",
      authorUsername: "erin.bsky.social",
    });
    const submit = bluesky.post({
      id: "at://did:plc:finn/app.bsky.feed.post/q2",
      text: "!submit @curate.bsky.social #council",
      authorId: "did:plc:finn",
      authorUsername: "finn.bsky.social",
      inReplyToId: post.id,
      repliedTo: post,
    });
    await runMentionIntake(server.db, bluesky);
    const key = `bluesky:${post.id}`;

    // Carol approves by reply on Bluesky: one vote of two.
    bluesky.post({
      id: "at://did:plc:carol/app.bsky.feed.post/q3",
      text: "@curate.bsky.social !approve",
      authorId: "did:plc:carol",
      authorUsername: "carol.bsky.social",
      inReplyToId: submit.id,
    });
    await runMentionIntake(server.db, bluesky);
    expect(await linkOf("council", key)).toMatchObject({
      status: "pending",
      tally: { required: 2, votes: [{ voter: "@carol.bsky.social", action: "approve" }] },
    });

    // …and again from Mastodon, naming the post: the same person, so still one vote (and the replay is nothing).
    mastodon.post({
      id: "https://fosstodon.org/users/carol/statuses/q4",
      text: `@curate@mastodon.social !approve #council ${post.url}`,
      authorId: "109",
      authorUsername: "carol@fosstodon.org",
    });
    await runMentionIntake(server.db, mastodon);
    await runMentionIntake(server.db, bluesky);
    expect((await linkOf("council", key)).tally.votes).toHaveLength(1);
    // In the app too, her account is the same person.
    const again = await vote("carol", "council", key, "approve");
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("already voted");
    expect(await server.db.select().from(processingJobs).where(eq(processingJobs.submissionId, key))).toEqual(
      [],
    );

    // Dave is the second person: the quorum is met, the post is approved and its publishing requested.
    const second = await vote("dave", "council", key, "approve");
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      status: "approved",
      processingJobId: expect.any(String),
      undoUntil: expect.any(String),
      tally: { required: 2, votes: [{ voter: "@carol.bsky.social" }, { voter: account("dave") }] },
      moderation: { moderatorAccountId: account("dave"), action: "approve" },
    });
    const history = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, key));
    expect(history).toHaveLength(1);

    // The log holds each vote, then the decision naming its quorum; the chain still verifies.
    const log = await server.json(`/api/feeds/council/log?order=oldest&limit=100`);
    const actions = log.body.data.items.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(["genesis", "submit", "vote", "vote", "approve"]);
    const decision = log.body.data.items.at(-1);
    expect(decision.fields.details.value).toMatchObject({
      quorum: { required: 2, approvals: ["@carol.bsky.social", account("dave")], rejections: 0 },
    });
    const verified = await verifyLog(`${server.baseUrl}/api/feeds/council/log`);
    expect(verified.report.break).toBeNull();
  });

  it("lets any approver who voted undo after the quorum; the post is voted on afresh", async () => {
    await insertSubmission(server.db, { tweetId: "u1", feeds: [{ feedId: "council" }] });
    expect((await vote("erin", "council", "u1", "approve")).body.data.status).toBe("pending");
    expect((await linkOf("council", "u1")).tally.undoUntil).toBeNull();
    const settled = await vote("fay", "council", "u1", "approve");
    expect(settled.body.data.status).toBe("approved");

    // Erin voted first, Fay settled it: only Fay's answer carried the window, so the post itself says until when
    // its approval can be taken back, for Erin's card as for anyone's.
    expect(settled.body.data.undoUntil).toEqual(expect.any(String));
    expect((await linkOf("council", "u1")).tally.undoUntil).toBe(settled.body.data.undoUntil);

    // Erin may take it back inside the window that started at the quorum.
    const undo = await server.json("/api/moderate/undo", {
      method: "POST",
      headers: sessionHeaders(server, cookies.erin),
      body: JSON.stringify({ feedId: "council", submissionId: "u1" }),
    });
    expect(undo.status).toBe(200);
    expect(undo.body.data.undone).toBe(1);
    expect(await linkOf("council", "u1")).toMatchObject({
      status: "pending",
      tally: { votes: [], undoUntil: null },
    });
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.submissionId, "u1"));
    expect(job.status).toBe("cancelled");
    const current = await server.db
      .select()
      .from(moderationVotes)
      .where(and(eq(moderationVotes.submissionId, "u1"), isNull(moderationVotes.withdrawnAt)));
    expect(current).toEqual([]);

    // A fresh round: Erin's earlier vote no longer counts, so her new one is one of two again.
    const fresh = await vote("erin", "council", "u1", "approve");
    expect(fresh.body.data).toMatchObject({
      status: "pending",
      tally: { votes: [{ voter: account("erin") }] },
    });
  });

  it("rejects at the first rejection under the veto rule", async () => {
    expect((await vote("dave", "vetoed", "v1", "approve")).body.data.status).toBe("pending");
    const veto = await vote("erin", "vetoed", "v1", "reject");
    expect(veto.body.data).toMatchObject({ status: "rejected", processingJobId: null });
    expect((await vote("fay", "vetoed", "v1", "approve")).status).toBe(409);
  });

  it("rejects by a majority of the votes cast once k have voted, and approves at k approvals that outnumber the rest", async () => {
    // m1: one approval, then two rejections — three votes cast, most of them rejections.
    expect((await vote("dave", "majority", "m1", "approve")).body.data.status).toBe("pending");
    expect((await vote("erin", "majority", "m1", "reject")).body.data.status).toBe("pending");
    const rejected = await vote("fay", "majority", "m1", "reject");
    expect(rejected.body.data).toMatchObject({
      status: "rejected",
      tally: { votes: [{ action: "approve" }, { action: "reject" }, { action: "reject" }] },
    });

    // m2: a rejection does not stop it; three approvals of four votes publish it.
    expect((await vote("erin", "majority", "m2", "reject")).body.data.status).toBe("pending");
    expect((await vote("dave", "majority", "m2", "approve")).body.data.status).toBe("pending");
    expect((await vote("fay", "majority", "m2", "approve")).body.data.status).toBe("pending");
    const approved = await vote("owner", "majority", "m2", "approve");
    expect(approved.body.data.status).toBe("approved");
  });

  it("never re-decides settled posts when the policy changes, and judges partial ones by the new k at their next vote", async () => {
    expect((await vote("dave", "shifting", "s1", "approve")).body.data.status).toBe("pending");
    expect((await vote("dave", "shifting", "s2", "approve")).body.data.status).toBe("pending");
    expect((await vote("erin", "shifting", "s2", "approve")).body.data.status).toBe("pending");

    const current = (await server.json("/api/feeds/shifting")).body.data;
    const saved = await server.json("/api/feeds/shifting", {
      method: "PUT",
      headers: sessionHeaders(server, cookies.owner),
      body: JSON.stringify({
        ...current.config,
        moderation: { ...current.config.moderation, quorum: { approvals: 2, rejection: "veto" } },
      }),
    });
    expect(saved.status).toBe(200);
    // s2 already has two approvals, but a save decides nothing: it waits for its next vote.
    expect(await linkOf("shifting", "s2")).toMatchObject({ status: "pending", tally: { required: 2 } });
    expect(await linkOf("shifting", "s1")).toMatchObject({ status: "pending", tally: { required: 2 } });

    const next = await vote("erin", "shifting", "s1", "approve");
    expect(next.body.data).toMatchObject({ status: "approved", tally: { required: 2 } });
    const third = await vote("fay", "shifting", "s2", "approve");
    expect(third.body.data.status).toBe("approved");

    // The change itself is in the log as a change of the moderation rules.
    const log = await server.json(`/api/feeds/shifting/log?action=rules_changed`);
    expect(log.body.data.items).toHaveLength(1);
  });

  it("counts a bulk decision as one vote per post, and a person's second bulk vote as nothing", async () => {
    const bulk = (who: keyof typeof keys, submissionIds: string[]) =>
      server.json("/api/moderate/bulk", {
        method: "POST",
        headers: sessionHeaders(server, cookies[who]),
        body: JSON.stringify({ feedId: "council", action: "approve", submissionIds }),
      });
    const first = await bulk("erin", ["b1", "b2"]);
    expect(first.body.data).toMatchObject({
      decided: 0,
      results: [
        { submissionId: "b1", outcome: "voted" },
        { submissionId: "b2", outcome: "voted" },
      ],
    });
    const again = await bulk("erin", ["b1"]);
    expect(again.body.data.results).toEqual([
      { submissionId: "b1", outcome: "already_voted", processingJobId: null },
    ]);
    const second = await bulk("fay", ["b1"]);
    expect(second.body.data).toMatchObject({
      decided: 1,
      results: [{ submissionId: "b1", outcome: "decided", processingJobId: expect.any(String) }],
    });
    expect((await linkOf("council", "b2")).status).toBe("pending");
  });

  it("keeps a rejecting voter anonymous in the tally and the log where the feed names no rejecters", async () => {
    const cast = await vote("dave", "quiet", "q1", "reject");
    expect(cast.body.data.status).toBe("pending");
    expect((await linkOf("quiet", "q1")).tally.votes).toEqual([{ voter: "an approver", action: "reject" }]);
    const log = await server.json("/api/feeds/quiet/log?action=vote");
    const [entry] = log.body.data.items;
    expect(entry.fields.actor).toEqual({ digest: expect.any(String), withheld: "private" });
    expect(JSON.stringify(log.body.data.items)).not.toContain(account("dave"));
  });

  it("has the bot reply once, when the quorum is met, never per vote", async () => {
    const acknowledgements = () =>
      server.db
        .select()
        .from(processingJobs)
        .where(and(eq(processingJobs.submissionId, "ack1"), eq(processingJobs.kind, "acknowledgement")));
    expect((await vote("dave", "acked", "ack1", "approve")).body.data.status).toBe("pending");
    expect(await acknowledgements()).toEqual([]);
    expect((await vote("erin", "acked", "ack1", "approve")).body.data.status).toBe("approved");
    const replies = await acknowledgements();
    expect(replies).toHaveLength(1);
    expect(replies[0].idempotencyKey).toBe("acknowledgement:approved:ack1:acked");
  });

  it("leaves a feed without a quorum deciding at one click, with no tally", async () => {
    const decided = await vote("dave", "single", "one", "approve");
    expect(decided.body.data).toMatchObject({ status: "approved" });
    expect(decided.body.data.tally ?? null).toBeNull();
    expect((await linkOf("single", "one")).tally).toBeNull();
    expect(
      await server.db.select().from(moderationVotes).where(eq(moderationVotes.submissionId, "one")),
    ).toEqual([]);
  });
});
