import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../../test/factories.ts";
import { startFakeTelegram } from "../../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../../test/harness.ts";
import { newKey } from "../../../test/near.ts";
import { sessionHeaders, signIn } from "../../../test/session.ts";
import { processingJobs } from "../../db/schema.ts";

const TOKEN = "123456789:AAH-pipeline-test-token-for-the-fake";
const SECRET = "whsec_pipeline";
let server: TestServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const moderatorKey = newKey();
let moderator: string;

function stream(id: string, webhookSecret: string) {
  return {
    id,
    name: id,
    description: `About ${id}`,
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
          {
            plugin: "@curatedotfun/telegram",
            config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", channelId: "@curate_news" },
          },
          { plugin: "@curate/webhook", config: { url: receiver.url, secret: webhookSecret } },
        ],
      },
    },
  };
}

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TOKEN, chats: ["@curate_news"] });
  receiver = await startWebhookReceiver(SECRET);
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      PROCESSING_MAX_ATTEMPTS: "3",
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      TELEGRAM_BOT_TOKEN: TOKEN,
      SERVER_HOOK_SECRET: SECRET,
      PLUGIN_SECRETS: "TELEGRAM_BOT_TOKEN,SERVER_HOOK_SECRET",
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    {
      worker: {
        feedSecrets: async (feedId): Promise<Record<string, string>> =>
          feedId === "channels" ? { HOOK_SECRET: SECRET } : {},
      },
    },
  );
  moderator = (await signIn(server, moderatorKey)).cookie;
  for (const [id, secret] of [
    ["channels", "{{HOOK_SECRET}}"],
    ["serverkey", "{{SERVER_HOOK_SECRET}}"],
  ]) {
    await insertFeed(server.db, {
      id,
      createdBy: moderatorKey.implicitAccountId,
      config: stream(id, secret),
    });
  }
});

afterAll(async () => {
  await server.close();
  await telegram.close();
  await receiver.close();
});

beforeEach(() => {
  telegram.reset();
  receiver.reset();
});

async function approve(feedId: string, content: string) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status, body } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, moderator),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  expect(status).toBe(200);
  return { tweetId, jobId: body.data.processingJobId as string };
}

async function finished(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    if (job && ["completed", "failed", "completed_with_errors"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stepsOf(jobId: string) {
  const { body } = await server.json(`/api/processing/jobs/${jobId}/steps`, {
    headers: sessionHeaders(server, moderator),
  });
  // biome-ignore lint/suspicious/noExplicitAny: step rows are checked by assertion
  return body.data.steps as Array<Record<string, any>>;
}

describe("a feed publishing to Telegram and a webhook", () => {
  it("runs both branches through the engine against the services' fakes", async () => {
    const content = "Solar panels got cheaper again <this year> & by a lot";
    const { tweetId, jobId } = await approve("channels", content);
    const job = await finished(jobId);
    expect(job.status).toBe("completed");
    const steps = await stepsOf(jobId);
    expect(steps.map((s) => [s.pluginName, s.status])).toEqual([
      ["@curate/object-transform", "success"],
      ["@curate/telegram", "success"],
      ["@curate/webhook", "success"],
    ]);

    expect(telegram.sent).toHaveLength(1);
    const link = steps[0].output.link as string;
    expect(telegram.sent[0].payload).toMatchObject({ chat_id: "@curate_news", parse_mode: "HTML" });
    expect(telegram.sent[0].visible).toBe(`Solar panels got cheaper again <this…\n\n${content}\n\n${link}`);
    const telegramStep = steps[1];
    expect(telegramStep.output.reference).toMatchObject({
      kind: "telegram-message",
      url: expect.stringMatching(/^https:\/\/t\.me\/curate_news\/\d+$/),
    });

    expect(receiver.refused).toEqual([]);
    expect(receiver.deliveries).toHaveLength(1);
    const webhookStep = steps[2];
    const [delivery] = receiver.deliveries;
    expect(delivery.id).toBe(webhookStep.idempotencyKey);
    expect(delivery.body).toMatchObject({
      event: "item.published",
      feedId: "channels",
      submissionId: tweetId,
      data: { tweetId, content, title: steps[0].output.title, link },
    });
    expect(webhookStep.output.reference).toEqual({
      kind: "webhook-delivery",
      id: webhookStep.idempotencyKey,
      url: receiver.url,
    });
  });

  it("retries Telegram's rate limit later without delivering the webhook twice", async () => {
    telegram.failNext(429, "Too Many Requests: retry after 1", { retry_after: 1 });
    const { jobId } = await approve("channels", "Wind power keeps growing");
    const job = await finished(jobId);
    expect(job).toMatchObject({ status: "completed", attempts: 2 });
    const steps = await stepsOf(jobId);
    expect(steps.map((s) => [s.pluginName, s.attempts])).toEqual([
      ["@curate/object-transform", 1],
      ["@curate/telegram", 2],
      ["@curate/webhook", 1],
    ]);
    expect(telegram.sent).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
  });

  it("never lets a server variable sign a webhook whose URL the feed chose", async () => {
    const { jobId } = await approve("serverkey", "Hydrogen news");
    expect((await finished(jobId)).status).toBe("completed_with_errors");
    const steps = await stepsOf(jobId);
    expect(steps[1]).toMatchObject({ pluginName: "@curate/telegram", status: "success" });
    expect(steps[2]).toMatchObject({
      pluginName: "@curate/webhook",
      status: "failed",
      error: { code: "FEED_SECRET_REQUIRED", retryable: false },
    });
    expect(receiver.requests).toHaveLength(0);
  });
});
