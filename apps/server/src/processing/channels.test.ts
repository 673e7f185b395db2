import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { processingJobs } from "../db/schema.ts";

/**
 * The engine's side of distribution at volume: each channel's rate rules space the sends, and a channel that
 * refuses the feed's credentials is paused (held, not failed a thousand times) until its owner fixes them.
 */
const TOKEN = "123456789:AAH-the-token-the-fake-accepts";
const SERVER_TOKEN = "987654321:AAH-the-servers-own-stale-token";
const HOOK_SECRET = "whsec_channels";
let server: TestServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const ownerKey = newKey();
let owner: string;

function config(id: string, distribute: unknown[]) {
  return { id, name: id, description: `About ${id}`, outputs: { stream: { enabled: true, distribute } } };
}
const telegramStep = (chat: string) => ({
  plugin: "@curate/telegram",
  config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: chat },
});
const webhookStep = () => ({
  plugin: "@curate/webhook",
  config: { url: receiver.url, secret: "{{HOOK_SECRET}}" },
});

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TOKEN, chats: ["@steady", "@precedence", "@paused"] });
  receiver = await startWebhookReceiver(HOOK_SECRET);
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      PROCESSING_MAX_ATTEMPTS: "3",
      // This file is about the pace itself: each channel's whole interval.
      CHANNEL_PACING_PERCENT: "100",
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      TELEGRAM_BOT_TOKEN: SERVER_TOKEN,
      PLUGIN_SECRETS: "TELEGRAM_BOT_TOKEN",
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    // The worker's own feed-secret store, as in production: no stand-in.
    { worker: {} },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  const feeds: Array<[string, unknown[]]> = [
    ["steady", [webhookStep()]],
    ["precedence", [telegramStep("@precedence")]],
    ["paused", [telegramStep("@paused"), webhookStep()]],
  ];
  for (const [id, distribute] of feeds) {
    await insertFeed(server.db, {
      id,
      createdBy: ownerKey.implicitAccountId,
      config: config(id, distribute),
    });
    await setSecret(id, "HOOK_SECRET", HOOK_SECRET);
  }
});

afterAll(async () => {
  await server?.close();
  await telegram?.close();
  await receiver?.close();
});

async function setSecret(feedId: string, name: string, value: string) {
  const { status } = await server.json(`/api/feeds/${feedId}/secrets/${name}`, {
    method: "PUT",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ value }),
  });
  expect(status).toBe(200);
}

async function approve(feedId: string, content: string): Promise<string> {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status, body } = await server.json("/api/moderate", {
    method: "POST",
    headers: sessionHeaders(server, owner),
    body: JSON.stringify({ submissionId: tweetId, feedId, action: "approve" }),
  });
  expect(status).toBe(200);
  return body.data.processingJobId as string;
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

async function until(check: () => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stepsOf(jobId: string) {
  const { body } = await server.json(`/api/processing/jobs/${jobId}/steps`, {
    headers: sessionHeaders(server, owner),
  });
  // biome-ignore lint/suspicious/noExplicitAny: step rows are checked by assertion
  return body.data.steps as Array<Record<string, any>>;
}

const hookRequests = (feedId: string) =>
  receiver.requests.filter((request) => request.body?.feedId === feedId);

describe("throttling per channel", () => {
  it("spaces a burst of approvals by the receiving host's rule instead of sending them at once", async () => {
    const burstStarted = Date.now();
    const jobs: string[] = [];
    for (let index = 0; index < 8; index++) jobs.push(await approve("steady", `Steady item ${index}`));
    for (const job of jobs) expect((await finished(job)).status).toBe("completed");

    const arrivals = hookRequests("steady")
      .map((request) => request.receivedAt)
      .sort((a, b) => a - b);
    expect(arrivals).toHaveLength(8);
    // The webhook rule allows one request per 200 ms per host: each send takes the next slot, none earlier than the
    // burst began, and starts no earlier than its slot. So the k-th request to arrive came at least k intervals
    // after the burst began, however busy the machine (slowness only delays). At once, all would come within ms.
    arrivals.forEach((at, index) => {
      expect(at - burstStarted).toBeGreaterThanOrEqual(index * 200);
    });
    expect(receiver.refused).toEqual([]);
  });
});

describe("a feed's own credentials", () => {
  it("fills {{NAME}} from the feed's secrets before the server's variables", async () => {
    await setSecret("precedence", "TELEGRAM_BOT_TOKEN", TOKEN);
    const job = await finished(await approve("precedence", "Which token signs this?"));
    expect(job.status).toBe("completed");
    const sent = telegram.sent.filter((message) => message.payload.chat_id === "@precedence");
    expect(sent.map((message) => message.token)).toEqual([TOKEN]);
  });
});

describe("a channel that refuses the feed's credentials", () => {
  it("is paused after one refusal, holds what follows, and resumes when the owner sets the secret", async () => {
    const pausedSends = () => telegram.requests.filter((request) => request.body?.chat_id === "@paused");

    const first = await finished(await approve("paused", "First under a stale token"));
    expect(first.status).toBe("completed_with_errors");
    const [firstTelegram] = (await stepsOf(first.id)).filter(
      (step) => step.pluginName === "@curate/telegram",
    );
    expect(firstTelegram.error).toMatchObject({ code: "CREDENTIALS_REJECTED", retryable: false });

    const later = [
      await finished(await approve("paused", "Second while paused")),
      await finished(await approve("paused", "Third while paused")),
    ];
    for (const job of later) {
      expect(job.status).toBe("completed_with_errors");
      const steps = await stepsOf(job.id);
      const held = steps.find((step) => step.pluginName === "@curate/telegram");
      expect(held?.error.code).toBe("CHANNEL_PAUSED");
      expect(held?.error.message).toContain("Resume publishing");
      expect(steps.find((step) => step.pluginName === "@curate/webhook")?.status).toBe("success");
    }
    // One refused call; the held publications never reached Telegram with the bad token.
    expect(pausedSends()).toHaveLength(1);
    expect(hookRequests("paused")).toHaveLength(3);

    const pauses = await server.json("/api/processing/feeds/paused/pauses", {
      headers: sessionHeaders(server, owner),
    });
    expect(pauses.body.data.pauses).toEqual([
      expect.objectContaining({ pluginName: "@curate/telegram", code: "CREDENTIALS_REJECTED", held: 3 }),
    ]);
    const summary = await server.json("/api/processing/feeds/paused/summary", {
      headers: sessionHeaders(server, owner),
    });
    expect(summary.body.data.pausedChannels).toBe(1);

    await setSecret("paused", "TELEGRAM_BOT_TOKEN", TOKEN);
    await until(() => telegram.sent.filter((message) => message.payload.chat_id === "@paused").length === 3);
    const delivered = telegram.sent.filter((message) => message.payload.chat_id === "@paused");
    expect(delivered.map((message) => message.token)).toEqual([TOKEN, TOKEN, TOKEN]);
    for (const text of ["First under a stale token", "Second while paused", "Third while paused"]) {
      expect(delivered.filter((message) => message.visible.includes(text))).toHaveLength(1);
    }
    // The other branch already published: resuming does not send it again.
    expect(hookRequests("paused")).toHaveLength(3);
    const after = await server.json("/api/processing/feeds/paused/pauses", {
      headers: sessionHeaders(server, owner),
    });
    expect(after.body.data.pauses).toEqual([]);
  });

  it("answers 409 to a resume when nothing is paused, and 403 to someone who does not manage the feed", async () => {
    const resume = (cookie: string) =>
      server.json("/api/processing/feeds/steady/pauses/resume", {
        method: "POST",
        headers: sessionHeaders(server, cookie),
        body: JSON.stringify({}),
      });
    expect((await resume(owner)).status).toBe(409);
    const { cookie: stranger } = await signIn(server);
    expect((await resume(stranger)).status).toBe(403);
  });
});
