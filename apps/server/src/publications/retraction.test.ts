import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeDiscord } from "../../test/fakes/discord.ts";
import { startFakeNotion } from "../../test/fakes/notion.ts";
import { startFakeRssService } from "../../test/fakes/rss-service.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { processingJobs, publications, submissionFeeds } from "../db/schema.ts";

const TELEGRAM_TOKEN = "123456789:AAH-ledger-test-token-for-the-fake";
const WEBHOOK = {
  id: "1200000000000000001",
  token: "ledger-webhook-token",
  channelId: "1100000000000000777",
};
const NOTION_TOKEN = "ntn_ledger_fake_secret";
const DATABASE = "d7c1e2f4a9d84c3e8f2a61d0c5e7b913";
const FEED = "ledger";

let server: TestServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let notion: Awaited<ReturnType<typeof startFakeNotion>>;
let rssService: Awaited<ReturnType<typeof startFakeRssService>>;
const EXTERNAL = "ledgerext";
const ownerKey = newKey();
const outsiderKey = newKey();
let owner: string;
let outsider: string;

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TELEGRAM_TOKEN, chats: ["@ledger_news"] });
  discord = await startFakeDiscord({ webhooks: [WEBHOOK], guildId: "1000000000000000001" });
  notion = await startFakeNotion({
    token: NOTION_TOKEN,
    databases: [{ id: DATABASE, properties: { Name: "title", Link: "url" } }],
  });
  rssService = await startFakeRssService("rss-service-secret");
  const secrets = {
    RSS_SECRET: "rss-service-secret",
    TELEGRAM_TOKEN,
    DISCORD_WEBHOOK_URL: `${discord.apiBaseUrl}/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
    NOTION_TOKEN,
  };
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      // A retryable failure is final at once, so a failed retraction step shows without waiting for backoff.
      PROCESSING_MAX_ATTEMPTS: "1",
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      DISCORD_API_BASE_URL: discord.apiBaseUrl,
      NOTION_API_BASE_URL: notion.baseUrl,
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    { worker: { feedSecrets: async (): Promise<Record<string, string>> => secrets } },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  outsider = (await signIn(server, outsiderKey)).cookie;
  await insertFeed(server.db, {
    id: FEED,
    createdBy: ownerKey.implicitAccountId,
    config: {
      id: FEED,
      name: "Ledger",
      description: "Published everywhere",
      outputs: {
        stream: {
          enabled: true,
          transform: [
            {
              plugin: "@curate/object-transform",
              config: { mappings: { title: "{{content | truncate:40}}", link: "{{url}}" } },
            },
          ],
          distribute: [
            { plugin: "@curate/rss", config: {} },
            {
              plugin: "@curate/telegram",
              config: { botToken: "{{TELEGRAM_TOKEN}}", chatId: "@ledger_news" },
            },
            { plugin: "@curate/discord", config: { webhookUrl: "{{DISCORD_WEBHOOK_URL}}" } },
            {
              plugin: "@curate/notion",
              config: {
                token: "{{NOTION_TOKEN}}",
                databaseId: DATABASE,
                fields: {
                  title: { type: "title", property: "Name" },
                  link: { type: "url", property: "Link" },
                },
              },
            },
          ],
        },
      },
    },
  });
  await insertFeed(server.db, {
    id: EXTERNAL,
    createdBy: ownerKey.implicitAccountId,
    config: {
      id: EXTERNAL,
      name: "External RSS",
      description: "Published to somebody else's RSS service",
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            { plugin: "@curate/rss", config: { serviceUrl: rssService.url, apiSecret: "{{RSS_SECRET}}" } },
          ],
        },
      },
    },
  });
});

afterAll(async () => {
  await server.close();
  await Promise.all([telegram.close(), discord.close(), notion.close(), rssService.close()]);
});

beforeEach(() => {
  telegram.reset();
  discord.reset();
  notion.reset();
});

const asOwner = () => sessionHeaders(server, owner);

async function finished(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    if (job && ["completed", "failed", "completed_with_errors"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A post approved in the feed and published to all four channels. */
async function published(content: string) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId: FEED }] });
  const { status, body } = await server.json("/api/moderate", {
    method: "POST",
    headers: asOwner(),
    body: JSON.stringify({ submissionId: tweetId, feedId: FEED, action: "approve" }),
  });
  expect(status).toBe(200);
  const job = await finished(body.data.processingJobId);
  expect(job.status).toBe("completed");
  return { tweetId, jobId: job.id };
}

const rssItems = async (format: "rss.xml" | "atom.xml" | "feed.json") =>
  (await server.request(`/rss/${FEED}/${format}`)).text();

function retract(submissionId: string, note?: string, headers = asOwner()) {
  return server.json("/api/moderate/retract", {
    method: "POST",
    headers,
    body: JSON.stringify({ submissionId, feedId: FEED, ...(note ? { note } : {}) }),
  });
}

async function stepsOf(jobId: string) {
  const { body } = await server.json(`/api/processing/jobs/${jobId}/steps`, { headers: asOwner() });
  // biome-ignore lint/suspicious/noExplicitAny: step rows are checked by assertion
  return body.data.steps as Array<Record<string, any>>;
}

describe("the publish ledger", () => {
  it("records every send with its reference, in the transaction that marks the step done", async () => {
    const { tweetId, jobId } = await published("Solar panels got cheaper again this year");
    const steps = await stepsOf(jobId);
    const distributions = steps.filter((step) => step.type === "distribution");
    expect(distributions).toHaveLength(4);

    const { status, body } = await server.json(`/api/submissions/${tweetId}/publications?feedId=${FEED}`, {
      headers: asOwner(),
    });
    expect(status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked by assertion
    const entries = body.data.items as Array<Record<string, any>>;
    expect(body.data.pagination).toMatchObject({ page: 0, limit: 20, hasNextPage: false, totalCount: 4 });
    // One entry per distribution step, carrying the reference its output names.
    for (const step of distributions) {
      const entry = entries.find((e) => e.stepId === step.id);
      expect(entry).toMatchObject({
        submissionId: tweetId,
        feedId: FEED,
        jobId,
        pluginName: step.pluginName,
        branch: step.branch,
        status: "published",
        reference: {
          kind: step.output.reference.kind,
          id: step.output.reference.id ?? null,
          url: step.output.reference.url ?? null,
        },
      });
    }
    const [message] = telegram.sent;
    expect(entries.find((e) => e.pluginName === "@curate/telegram")?.reference).toEqual({
      kind: "telegram-message",
      id: `${message.chatId}/${message.messageId}`,
      url: `https://t.me/ledger_news/${message.messageId}`,
    });
    expect(entries.find((e) => e.pluginName === "@curate/discord")?.reference).toMatchObject({
      kind: "discord-message",
      id: discord.posted[0].id,
    });
    expect(entries.find((e) => e.pluginName === "@curate/notion")?.reference).toMatchObject({
      kind: "notion-page",
      id: notion.pages[0].id,
      url: notion.pages[0].url,
    });

    // The job's own ledger lists the same four, paged.
    const byJob = await server.json(`/api/processing/jobs/${jobId}/publications?limit=3`, {
      headers: asOwner(),
    });
    expect(byJob.status).toBe(200);
    expect(byJob.body.data.items).toHaveLength(3);
    expect(byJob.body.data.pagination).toMatchObject({ hasNextPage: true, totalCount: 4 });
  });

  it("is for the feed's moderators only", async () => {
    const { tweetId, jobId } = await published("Wind power keeps growing");
    expect((await server.json(`/api/submissions/${tweetId}/publications`)).status).toBe(401);
    expect((await server.json(`/api/processing/jobs/${jobId}/publications`)).status).toBe(401);
    const headers = sessionHeaders(server, outsider);
    const forbidden = await server.json(`/api/submissions/${tweetId}/publications?feedId=${FEED}`, {
      headers,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ success: false, error: { code: "FORBIDDEN" } });
    expect((await server.json(`/api/processing/jobs/${jobId}/publications`, { headers })).status).toBe(403);
    // Without a feed, a signed-in user who moderates none of the post's feeds is refused too, not told "nothing".
    const none = await server.json(`/api/submissions/${tweetId}/publications`, { headers });
    expect(none.status).toBe(403);
    expect(none.body.error).toEqual({
      code: "FORBIDDEN",
      message: "Only moderators of this post's feeds can see where it was published.",
    });
    // The submission itself is public, with its feeds and history.
    const page = await server.json(`/api/submissions/${tweetId}`);
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ tweetId, feeds: [{ feedId: FEED, status: "approved" }] });
    expect((await server.json("/api/submissions/nope-404")).status).toBe(404);
    const tooMany = await server.json(`/api/submissions/${tweetId}/publications?limit=101`, {
      headers: asOwner(),
    });
    expect(tooMany.status).toBe(400);
  });
});

describe("retraction", () => {
  it("records a channel that cannot take the post back as such, with the reason, and never retries it", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Sent to an external RSS service",
      feeds: [{ feedId: EXTERNAL }],
    });
    const approval = await server.json("/api/moderate", {
      method: "POST",
      headers: asOwner(),
      body: JSON.stringify({ submissionId: tweetId, feedId: EXTERNAL, action: "approve" }),
    });
    expect((await finished(approval.body.data.processingJobId)).status).toBe("completed");
    const { status, body } = await server.json("/api/moderate/retract", {
      method: "POST",
      headers: asOwner(),
      body: JSON.stringify({ submissionId: tweetId, feedId: EXTERNAL }),
    });
    expect(status).toBe(200);
    const job = await finished(body.data.retractionJobId);
    expect(job.status).toBe("completed_with_errors");
    const [step] = await stepsOf(job.id);
    expect(step).toMatchObject({
      type: "retraction",
      status: "failed",
      error: { code: "CANNOT_RETRACT", retryable: false },
    });
    expect(step.error.message).toContain("on that service");
    const [entry] = await server.db.select().from(publications).where(eq(publications.submissionId, tweetId));
    expect(entry).toMatchObject({ status: "cannot_retract", retractionJobId: job.id });
    expect(entry.retractionNote).toContain("on that service");
    const retry = await server.json(`/api/processing/jobs/${job.id}/retry`, {
      method: "POST",
      headers: asOwner(),
    });
    expect(retry.status).toBe(409);
    // The old approval job cannot publish the retracted post again.
    const reprocess = await server.json(
      `/api/processing/jobs/${approval.body.data.processingJobId}/reprocess`,
      {
        method: "POST",
        headers: asOwner(),
      },
    );
    expect(reprocess.status).toBe(409);
    expect(reprocess.body.error.message).toContain("not published again");
  });

  it("removes the publication from RSS (every format), Telegram, Discord and Notion", async () => {
    const content = "Heat pumps outsold gas boilers";
    const { tweetId } = await published(content);
    expect(await rssItems("rss.xml")).toContain("Heat pumps outsold gas boilers");
    expect(telegram.sent).toHaveLength(1);
    expect(discord.posted).toHaveLength(1);
    expect(notion.pages).toHaveLength(1);
    const [message] = telegram.sent;
    const [posted] = discord.posted;

    const { status, body } = await retract(tweetId, "Posted by mistake");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      submissionId: tweetId,
      feedId: FEED,
      status: "rejected",
      publications: 4,
      cancelledJobs: 0,
      moderation: { action: "reject", retraction: true, note: "Posted by mistake" },
    });
    const job = await finished(body.data.retractionJobId);
    expect(job).toMatchObject({ kind: "retraction", status: "completed" });

    // Each channel got its own delete call, in its wire format.
    expect(telegram.sent).toHaveLength(0);
    expect(telegram.deleted.map((m) => m.messageId)).toEqual([message.messageId]);
    const deleteCall = telegram.requests.find((r) => r.path.endsWith("/deleteMessage"));
    expect(deleteCall?.body).toEqual({ chat_id: message.chatId, message_id: message.messageId });
    expect(discord.posted).toHaveLength(0);
    expect(discord.deleted.map((m) => m.id)).toEqual([posted.id]);
    expect(
      discord.requests.some(
        (r) =>
          r.method === "DELETE" &&
          r.path === `/api/v10/webhooks/${WEBHOOK.id}/${WEBHOOK.token}/messages/${posted.id}`,
      ),
    ).toBe(true);
    expect(notion.pages[0].inTrash).toBe(true);
    const trash = notion.requests.find((r) => r.method === "PATCH");
    expect(trash?.path).toBe(`/v1/pages/${notion.pages[0].id}`);
    expect(trash?.body).toEqual({ in_trash: true });
    for (const format of ["rss.xml", "atom.xml", "feed.json"] as const) {
      expect(await rssItems(format)).not.toContain("Heat pumps outsold gas boilers");
    }

    // The steps, the ledger, the link and the public history all say so.
    const steps = await stepsOf(job.id);
    expect(steps.map((s) => [s.type, s.status])).toEqual(Array(4).fill(["retraction", "success"]));
    const ledger = await server.db.select().from(publications).where(eq(publications.submissionId, tweetId));
    expect(ledger.map((entry) => entry.status)).toEqual(Array(4).fill("retracted"));
    expect(ledger.every((entry) => entry.retractionJobId === job.id && entry.retractedAt)).toBe(true);
    const [link] = await server.db
      .select()
      .from(submissionFeeds)
      .where(and(eq(submissionFeeds.submissionId, tweetId), eq(submissionFeeds.feedId, FEED)));
    expect(link.status).toBe("rejected");
    const page = await server.json(`/api/submissions/${tweetId}`);
    expect(page.body.data.moderationHistory.at(-1)).toMatchObject({
      action: "reject",
      retraction: true,
      note: "Posted by mistake",
    });

    // The processing tab keeps the retracted post, so its retraction can be inspected.
    const tab = await server.json(`/api/processing/feeds/${FEED}/submissions`, { headers: asOwner() });
    const row = tab.body.data.items.find((item: { submissionId: string }) => item.submissionId === tweetId);
    expect(row).toMatchObject({ retracted: true, latestJob: { id: job.id, status: "completed" } });

    // Retracting again is a conflict: it is not approved any more.
    expect((await retract(tweetId)).status).toBe(409);
  });

  it("leaves a failing channel's step failed and retryable while the others are done", async () => {
    const { tweetId } = await published("Batteries store the evening peak");
    const [posted] = discord.posted;
    discord.answerNext({ status: 503, body: { message: "Service Unavailable" } });

    const { body } = await retract(tweetId);
    const job = await finished(body.data.retractionJobId);
    expect(job.status).toBe("completed_with_errors");
    const steps = await stepsOf(job.id);
    const failed = steps.filter((s) => s.status === "failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      pluginName: "@curate/discord",
      error: { code: "DISCORD_UNAVAILABLE", retryable: true },
    });
    expect(steps.filter((s) => s.status === "success")).toHaveLength(3);
    expect(discord.posted).toHaveLength(1);
    expect(telegram.deleted).toHaveLength(1);
    const ledger = await server.db.select().from(publications).where(eq(publications.submissionId, tweetId));
    const discordEntry = ledger.find((entry) => entry.pluginName === "@curate/discord");
    expect(discordEntry).toMatchObject({
      status: "published",
      retractionNote: expect.stringContaining("503"),
    });

    // Retry Failed from the processing tab: a new retraction job for the one left.
    const retry = await server.json(`/api/processing/jobs/${job.id}/retry`, {
      method: "POST",
      headers: asOwner(),
    });
    expect(retry.status).toBe(201);
    expect(retry.body.data.job).toMatchObject({ kind: "retraction", retryOfJobId: job.id });
    const again = await finished(retry.body.data.job.id);
    expect(again.status).toBe("completed");
    expect((await stepsOf(again.id)).map((s) => s.pluginName)).toEqual(["@curate/discord"]);
    expect(discord.posted).toHaveLength(0);
    expect(discord.deleted.map((m) => m.id)).toEqual([posted.id]);
    // Telegram was not asked twice.
    expect(telegram.requests.filter((r) => r.path.endsWith("/deleteMessage"))).toHaveLength(1);
    // Nothing left to retry now.
    expect(
      (await server.json(`/api/processing/jobs/${again.id}/retry`, { method: "POST", headers: asOwner() }))
        .status,
    ).toBe(409);
  });

  it("is for the feed's moderators only, and only for approved posts", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Pending post",
      feeds: [{ feedId: FEED }],
    });
    const anonymous = await server.json("/api/moderate/retract", {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({ submissionId: tweetId, feedId: FEED }),
    });
    expect(anonymous.status).toBe(401);
    const forbidden = await retract(tweetId, undefined, sessionHeaders(server, outsider));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("FORBIDDEN");
    const pending = await retract(tweetId);
    expect(pending.status).toBe(409);
    expect(pending.body.error.message).toContain("only an approved post can be retracted");
    expect((await retract("no-such-post")).status).toBe(404);
    const invalid = await server.json("/api/moderate/retract", {
      method: "POST",
      headers: asOwner(),
      body: JSON.stringify({ submissionId: tweetId, feedId: FEED, note: "x".repeat(2001) }),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("cancels a publication that has not started and asks nothing of the channels", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Not yet out",
      feeds: [{ feedId: FEED }],
    });
    // Approved with a long undo window: its job waits in the outbox.
    const [decided] = await server.db
      .update(submissionFeeds)
      .set({ status: "approved" })
      .where(and(eq(submissionFeeds.submissionId, tweetId), eq(submissionFeeds.feedId, FEED)))
      .returning();
    expect(decided.status).toBe("approved");
    await server.db.insert(processingJobs).values({
      id: `waiting-${tweetId}`,
      kind: "approval",
      submissionId: tweetId,
      feedId: FEED,
      status: "pending",
      idempotencyKey: `waiting-${tweetId}`,
      notBefore: new Date(Date.now() + 60 * 60_000),
    });
    const { status, body } = await retract(tweetId, "Changed our mind");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ publications: 0, retractionJobId: null, cancelledJobs: 1 });
    const [job] = await server.db
      .select()
      .from(processingJobs)
      .where(eq(processingJobs.id, `waiting-${tweetId}`));
    expect(job.status).toBe("cancelled");
    expect(telegram.requests).toHaveLength(0);
  });
});
