import { randomUUID } from "node:crypto";
import { operationsOverviewSchema } from "@curate/core";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { processingJobs, processingSteps } from "../db/schema.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { recordSourcePoll } from "./intake-sources.ts";
import type { LogSelfCheckStatus } from "./log-check.ts";

const SECRET = "alert-webhook-secret-0123456789";
const BOT_TOKEN = "123456:alert-bot-token-abcdefghijklmnop";
const CHAT = "-100777";
const FEED = "watched";
const adminKey = newKey();
const ALERT_FAILURE_WINDOW_MINUTES = 60;

let server: TestServer;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
/** The worker's clock: each test moves it on, so every check happens at a time the test chose. */
let now = new Date();
let logStatus: LogSelfCheckStatus | null = null;

beforeAll(async () => {
  hook = await startWebhookReceiver(SECRET);
  telegram = await startFakeTelegram({ token: BOT_TOKEN, chats: [CHAT] });
  server = await startTestServer(
    {
      SUPER_ADMIN_ACCOUNTS: adminKey.implicitAccountId,
      ALERT_WEBHOOK_URL: hook.url,
      ALERT_WEBHOOK_SECRET: SECRET,
      ALERT_TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      ALERT_TELEGRAM_CHAT_ID: CHAT,
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      ALERT_QUEUE_AGE_MINUTES: "15",
      ALERT_FAILURE_RATE_PERCENT: "50",
      ALERT_FAILURE_MIN_STEPS: "4",
      ALERT_FAILURE_WINDOW_MINUTES: String(ALERT_FAILURE_WINDOW_MINUTES),
      ALERT_SOURCE_SILENT_MINUTES: "60",
      X_API_CALLS_PER_HOUR: "2",
      // Checks run only when a test asks (runAlertsNow), at the clock it set.
      ALERT_CHECK_INTERVAL_MS: "3600000",
    },
    { worker: { clock: () => now, logSelfCheck: { status: async () => logStatus } } },
  );
  await insertFeed(server.db, { id: FEED, createdBy: adminKey.implicitAccountId });
});

afterAll(async () => {
  await server?.close();
  await hook?.close();
  await telegram?.close();
});

beforeEach(() => {
  hook.reset();
  telegram.reset();
});

const minutesLater = (minutes: number) => {
  now = new Date(now.getTime() + minutes * 60_000);
};
const check = () => server.worker?.runAlertsNow() ?? Promise.reject(new Error("no worker"));
const notices = (kind: string) => hook.deliveries.filter((delivery) => delivery.body.data.kind === kind);
/**
 * The distinct texts the alert bot sent that contain `text`. A send that outlasted its timeout on a busy machine is
 * sent again (at least once, like the webhook, whose fake keeps one delivery per delivery id); how many notices a
 * check sent is what `check()` answers.
 */
const messages = (text: string) => [
  ...new Set(telegram.sent.map((message) => message.payload.text).filter((sent) => sent.includes(text))),
];

/** A job handed to the queue already, so it waits as a job nobody takes would. */
async function waitingJob(kind: "reprocess" | "retry") {
  const id = randomUUID();
  await server.db.insert(processingJobs).values({
    id,
    kind,
    feedId: FEED,
    status: "pending",
    idempotencyKey: id,
    queuedAt: now,
    createdAt: now,
  });
  return id;
}

describe("alerts", () => {
  it("tell the admins once when a queue waits too long, and once when it is resolved", async () => {
    const jobId = await waitingJob("reprocess");
    minutesLater(14);
    expect(await check()).toMatchObject({ ran: true, opened: 0 });
    expect(hook.deliveries).toEqual([]);

    minutesLater(2);
    expect(await check()).toMatchObject({ opened: 1, notices: 1 });
    const [opened] = notices("queue_age");
    expect(opened.event).toBe("alert.opened");
    expect(opened.body.data).toMatchObject({ subject: "reprocess", resolvedAt: null });
    expect(opened.body.data.message).toContain(
      "The reprocess queue has a job waiting for 16 minutes (threshold 15)",
    );
    expect(messages("Queue waiting")).toHaveLength(1);
    expect(messages("Queue waiting")[0]).toMatch(/^🔴 Curate alert — Queue waiting: The reprocess/);

    // Still open: nobody is told again.
    minutesLater(5);
    expect(await check()).toMatchObject({ opened: 0, resolved: 0, notices: 0 });
    expect(notices("queue_age")).toHaveLength(1);

    await server.db.update(processingJobs).set({ status: "completed" }).where(eq(processingJobs.id, jobId));
    minutesLater(1);
    expect(await check()).toMatchObject({ resolved: 1, notices: 1 });
    expect(notices("queue_age").map((delivery) => delivery.event)).toEqual([
      "alert.opened",
      "alert.resolved",
    ]);
    expect(messages("Queue waiting")).toEqual([
      expect.stringMatching(/^🔴/),
      expect.stringMatching(/^✅ Resolved after 6 min — Queue waiting: /),
    ]);
    minutesLater(1);
    expect(await check()).toMatchObject({ opened: 0, resolved: 0, notices: 0 });
  });

  it("retry a notice nobody could take at the next check, and open one incident for a spent budget", async () => {
    const budget = createXBudget(server.db, { limit: 2, clock: () => now });
    await budget.take();
    await budget.take();
    // Both targets fail (the webhook's retry too): the notice waits for the next check.
    hook.answerNext({ status: 503, body: "down" });
    hook.answerNext({ status: 503, body: "down" });
    telegram.failNext(500, "Internal Server Error");
    telegram.failNext(500, "Internal Server Error");
    expect(await check()).toMatchObject({ opened: 1, notices: 0 });
    expect(notices("budget_exhausted")).toEqual([]);

    expect(await check()).toMatchObject({ opened: 0, notices: 1 });
    expect(notices("budget_exhausted")).toHaveLength(1);
    expect(notices("budget_exhausted")[0].body.data.message).toContain("(2 of 2 calls)");
    expect(messages("Budget spent")).toHaveLength(1);

    // The next hour has a fresh budget.
    minutesLater(60);
    expect(await check()).toMatchObject({ resolved: 1 });
    expect(notices("budget_exhausted").map((delivery) => delivery.event)).toEqual([
      "alert.opened",
      "alert.resolved",
    ]);
  });

  it("open for a failure rate, a silent source and a broken log chain, shown on the Operations page", async () => {
    const jobId = await waitingJob("retry");
    await server.db.update(processingJobs).set({ status: "failed" }).where(eq(processingJobs.id, jobId));
    await server.db.insert(processingSteps).values(
      [true, true, true, false].map((failed, order) => ({
        id: randomUUID(),
        jobId,
        stepOrder: order + 1,
        type: "distribution" as const,
        stage: "distributor" as const,
        branch: 0,
        pluginName: "@curate/telegram",
        status: failed ? ("failed" as const) : ("success" as const),
        error: failed ? { message: "chat not found", code: "TELEGRAM_REJECTED", retryable: false } : null,
        completedAt: new Date(now.getTime() - 60_000),
      })),
    );
    await server.db.execute(
      sql`insert into intake_sources (source_key, network, last_poll_at, last_success_at, next_poll_at, last_error,
          last_error_at, created_at)
        values ('x:mentions:curatedotfun', 'twitter', ${now.toISOString()},
          ${new Date(now.getTime() - 2 * 3600_000).toISOString()}, ${new Date(now.getTime() + 60_000).toISOString()},
          'X API answered 503', ${now.toISOString()}, ${new Date(now.getTime() - 3 * 3600_000).toISOString()})`,
    );
    logStatus = { state: "broken", checkedAt: now, brokenFeeds: [FEED], message: "Entry 12 does not chain." };

    expect(await check()).toMatchObject({ opened: 3, notices: 3 });
    expect(notices("failure_rate")[0].body.data).toMatchObject({ subject: "@curate/telegram → telegram" });
    expect(notices("failure_rate")[0].body.data.message).toContain("failed 3 of 4 steps (75%)");
    expect(notices("source_silent")[0].body.data.message).toContain("Last error: X API answered 503");
    expect(notices("log_chain_broken")[0].body.data.message).toContain(`(feeds: ${FEED})`);

    const admin = (await signIn(server, adminKey)).cookie;
    const { body } = await server.json("/api/operations", { headers: sessionHeaders(server, admin) });
    const overview = operationsOverviewSchema.parse(body.data);
    expect(overview.alerts.targets).toEqual(["webhook", "telegram"]);
    expect(overview.alerts.open.map((alert) => alert.kind).sort()).toEqual([
      "failure_rate",
      "log_chain_broken",
      "source_silent",
    ]);
    expect(overview.logCheck).toMatchObject({ available: true, state: "broken", brokenFeeds: [FEED] });
    expect(overview.recentErrors[0]).toMatchObject({
      jobId,
      plugin: "@curate/telegram",
      code: "TELEGRAM_REJECTED",
    });

    logStatus = { state: "ok", checkedAt: now, brokenFeeds: [] };
    expect(await check()).toMatchObject({ resolved: 1 });
    expect(notices("log_chain_broken").map((delivery) => delivery.event)).toEqual([
      "alert.opened",
      "alert.resolved",
    ]);

    // The failures leave the window and the source reads again: both incidents end, and each is told once.
    minutesLater(ALERT_FAILURE_WINDOW_MINUTES + 1);
    await recordSourcePoll(server.db, {
      sourceKey: "x:mentions:curatedotfun",
      network: "twitter",
      at: now,
      nextPollAt: new Date(now.getTime() + 60_000),
    });
    expect(await check()).toMatchObject({ opened: 0, resolved: 2, notices: 2 });
    for (const kind of ["failure_rate", "source_silent"]) {
      expect(notices(kind).map((delivery) => delivery.event)).toEqual(["alert.opened", "alert.resolved"]);
    }
    expect(messages("✅")).toHaveLength(3);
  });
});
