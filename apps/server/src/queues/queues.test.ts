import { QUEUE_REMINDER_DAILY_CAP, QUEUE_REMINDER_PERIOD_HOURS } from "@curate/core";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey, type TestKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { createTelegramBotApi } from "../clients/telegram-bot.ts";
import { queryRows } from "../db/sql.ts";
import { refreshMedians } from "../reputation/service.ts";
import { type ReminderDeps, sendQueueReminders } from "./reminders.ts";

const TOKEN = "7000000003:AAH-reminder-bot-secret-token-0789";
const HOUR = 3_600_000;
/** The pending post of feed "slow" was submitted then; the feed aims to decide within 6 h. */
const T0 = new Date("2026-05-01T00:00:00Z");
const at = (hours: number, seconds = 0) => new Date(T0.getTime() + hours * HOUR + seconds * 1000);

let server: TestServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let deps: ReminderDeps;
const people: Record<"ann" | "ben" | "cal" | "dee", { key: TestKey; cookie: string; userId: number }> =
  {} as never;
let pending: string;

const put = (cookie: string, feedId: string, body: unknown) =>
  server.json(`/api/feeds/${feedId}/reminders`, {
    method: "PUT",
    headers: sessionHeaders(server, cookie),
    body: JSON.stringify(body),
  });

const remindersOf = (who: keyof typeof people) =>
  queryRows<{ feedId: string; createdAt: string; telegram: string | null }>(
    server.db,
    sql`select feed_id as "feedId", created_at::text as "createdAt", telegram_status as telegram
      from queue_reminders where user_id = ${people[who].userId} order by created_at, id`,
  );

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
  // ann and cal linked Telegram accounts; only ann's chat ever started the bot.
  telegram = await startFakeTelegram({ token: TOKEN, chats: ["555001"] });
  for (const name of ["ann", "ben", "cal", "dee"] as const) {
    const key = newKey();
    const { cookie } = await signIn(server, key);
    const [user] = await queryRows<{ id: number }>(
      server.db,
      sql`select id from users where near_account_id = ${key.implicitAccountId}`,
    );
    people[name] = { key, cookie, userId: user.id };
  }
  for (const [name, chat] of [
    ["ann", "555001"],
    ["cal", "555002"],
  ] as const) {
    await server.db.execute(sql`insert into linked_accounts (user_id, platform_name, platform_user_id, username)
      values (${people[name].userId}, 'telegram', ${chat}, ${name})`);
  }
  const approvers = { twitter: [people.ann, people.ben, people.cal].map((p) => p.key.implicitAccountId) };
  await insertFeed(server.db, { id: "slow", config: { moderation: { approvers, decideWithinHours: 6 } } });
  await insertFeed(server.db, { id: "nosla", config: { moderation: { approvers } } });
  ({ tweetId: pending } = await insertSubmission(server.db, {
    submittedAt: T0,
    feeds: [{ feedId: "slow" }, { feedId: "nosla" }],
  }));
  deps = {
    env: { SUPER_ADMIN_ACCOUNTS: [], PUBLIC_URL: "https://curate.example" },
    telegram: createTelegramBotApi({ apiRoot: telegram.apiRoot, token: TOKEN, retries: 0 }),
    logger: pino({ level: "silent" }),
  };
});

afterAll(async () => {
  await server.close();
  await telegram.close();
});

describe("queue health", () => {
  it("shows the oldest pending post, the overdue count and the median as of its recomputation", async () => {
    // Three earlier decisions after 1 h, 2 h and 9 h: the median is 2 h.
    for (const [index, hours] of [1, 2, 9].entries()) {
      const { tweetId } = await insertSubmission(server.db, {
        submittedAt: at(-48 + index),
        feeds: [{ feedId: "slow", status: "approved" }],
      });
      await server.db.execute(sql`update moderation_history set created_at = ${at(-48 + index + hours)},
          wait_seconds = ${hours * 3600} where submission_id = ${tweetId}`);
    }
    const before = await server.json("/api/feeds/slow/queue");
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ medianDecisionSeconds: null, medianAsOf: null });
    await refreshMedians(server.db, at(1));
    const { body } = await server.json("/api/feeds/SLOW/queue");
    expect(body.data).toMatchObject({
      feedId: "slow",
      pendingCount: 1,
      oldestPendingAt: T0.toISOString(),
      oldestPendingSubmissionId: pending,
      medianDecisionSeconds: 7200,
      decisionsSampled: 3,
      medianAsOf: at(1).toISOString(),
      decideWithinHours: 6,
    });
    // Measured against the real clock, the post of May is long overdue.
    expect(body.data.overdueCount).toBe(1);
    const none = await server.json("/api/feeds/nosla/queue");
    expect(none.body.data).toMatchObject({ decideWithinHours: null, overdueCount: 0, pendingCount: 1 });
    expect((await server.json("/api/feeds/nope/queue")).status).toBe(404);
  });
});

describe("reminder settings", () => {
  it("lets approvers opt in, with Telegram only once they linked it", async () => {
    const ann = await put(people.ann.cookie, "slow", { subscribed: true, telegram: true });
    expect(ann.status).toBe(200);
    expect(ann.body.data).toEqual({
      feedId: "slow",
      subscribed: true,
      telegram: true,
      telegramAvailable: true,
      decideWithinHours: 6,
    });
    const ben = await put(people.ben.cookie, "slow", { subscribed: true, telegram: true });
    expect(ben.status).toBe(400);
    expect(ben.body.error.code).toBe("VALIDATION_ERROR");
    expect((await put(people.ben.cookie, "slow", { subscribed: true })).body.data).toMatchObject({
      subscribed: true,
      telegram: false,
      telegramAvailable: false,
    });
    expect((await put(people.cal.cookie, "slow", { subscribed: true, telegram: true })).status).toBe(200);
    const read = await server.json("/api/feeds/slow/reminders", {
      headers: sessionHeaders(server, people.ben.cookie),
    });
    expect(read.body.data.subscribed).toBe(true);
  });

  it("refuses strangers, anonymous callers and bad bodies", async () => {
    expect((await put(people.dee.cookie, "slow", { subscribed: true })).status).toBe(403);
    const anonymous = await server.json("/api/feeds/slow/reminders");
    expect(anonymous.status).toBe(401);
    expect((await put(people.ann.cookie, "slow", { subscribed: "yes" })).status).toBe(400);
    expect((await put(people.ann.cookie, "slow", { subscribed: true, extra: 1 })).status).toBe(400);
    expect((await put(people.ann.cookie, "nope", { subscribed: true })).status).toBe(404);
  });
});

describe("reminders, on a controlled clock", () => {
  it("waits for the service level, then reminds each opted-in approver once, by Telegram if they chose", async () => {
    // dee subscribed while she moderated; she no longer does, so she is never reminded.
    await server.db.execute(sql`insert into queue_reminder_subscriptions (user_id, feed_id)
      values (${people.dee.userId}, 'slow')`);
    expect(await sendQueueReminders(server.db, deps, at(5, 59 * 60))).toEqual({
      created: 0,
      telegramSent: 0,
      telegramFailed: 0,
    });
    expect(await sendQueueReminders(server.db, deps, at(6, 1))).toEqual({
      created: 3,
      telegramSent: 1,
      telegramFailed: 1,
    });
    expect(await remindersOf("ann")).toEqual([expect.objectContaining({ feedId: "slow", telegram: "sent" })]);
    expect(await remindersOf("ben")).toEqual([expect.objectContaining({ feedId: "slow", telegram: null })]);
    // cal's chat never started the bot: the Telegram copy failed, the reminder in the app stands.
    expect(await remindersOf("cal")).toEqual([
      expect.objectContaining({ feedId: "slow", telegram: "failed" }),
    ]);
    expect(await remindersOf("dee")).toEqual([]);
    // A private message to ann's own chat, linking to the post; never a reply in a public thread.
    expect(telegram.sent).toHaveLength(1);
    const [message] = telegram.sent;
    expect(message.chatId).toBe(555001);
    expect(message.payload.reply_parameters).toBeUndefined();
    expect(message.visible).toBe(
      `#slow: a post has waited 6 h for a decision (the feed aims for 6 h).\nhttps://curate.example/submission/${pending}`,
    );
  });

  it("at most once per period per feed", async () => {
    expect((await sendQueueReminders(server.db, deps, at(8))).created).toBe(0);
    expect((await sendQueueReminders(server.db, deps, at(6 + QUEUE_REMINDER_PERIOD_HOURS, 0))).created).toBe(
      0,
    );
    expect((await sendQueueReminders(server.db, deps, at(6 + QUEUE_REMINDER_PERIOD_HOURS, 2))).created).toBe(
      3,
    );
    expect(telegram.sent).toHaveLength(2);
  });

  it("under a daily cap over every feed, most overdue first", async () => {
    // Four more overdue feeds only ben follows: the oldest posts first, until his cap for 24 hours is reached.
    for (const n of [1, 2, 3, 4]) {
      const approvers = { twitter: [people.ben.key.implicitAccountId] };
      await insertFeed(server.db, {
        id: `cap${n}`,
        config: { moderation: { approvers, decideWithinHours: 1 } },
      });
      await insertSubmission(server.db, { submittedAt: at(-n), feeds: [{ feedId: `cap${n}` }] });
      expect((await put(people.ben.cookie, `cap${n}`, { subscribed: true })).status).toBe(200);
    }
    await sendQueueReminders(server.db, deps, at(13));
    const ben = await remindersOf("ben");
    expect(ben).toHaveLength(QUEUE_REMINDER_DAILY_CAP);
    expect(ben.map((reminder) => reminder.feedId)).toEqual(["slow", "slow", "cap4", "cap3"]);
    // A day after his two reminders about slow, ben has room for two more: again the most overdue feeds.
    await sendQueueReminders(server.db, deps, at(6 + QUEUE_REMINDER_PERIOD_HOURS + 24, 3));
    const later = (await remindersOf("ben")).slice(QUEUE_REMINDER_DAILY_CAP);
    expect(later.map((reminder) => reminder.feedId)).toEqual(["cap4", "cap3"]);
  });

  it("lists the session's reminders with links to the post, and marks them read", async () => {
    const headers = sessionHeaders(server, people.ann.cookie);
    const { status, body } = await server.json("/api/reminders?limit=1", { headers });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      items: [{ feedId: "slow", submissionId: pending, waitingSince: T0.toISOString(), readAt: null }],
      pagination: { page: 0, limit: 1, hasNextPage: true, totalCount: 3 },
      unreadCount: 3,
    });
    const marked = await server.json("/api/reminders/read", {
      method: "POST",
      headers,
      body: JSON.stringify({ ids: [body.data.items[0].id] }),
    });
    expect(marked.body.data).toEqual({ marked: 1 });
    const all = await server.json("/api/reminders/read", { method: "POST", headers, body: "{}" });
    expect(all.body.data).toEqual({ marked: 2 });
    expect((await server.json("/api/reminders", { headers })).body.data.unreadCount).toBe(0);
    // Another user's reminders are not ann's to read.
    const ben = await server.json("/api/reminders", { headers: sessionHeaders(server, people.ben.cookie) });
    expect(ben.body.data.unreadCount).toBe(6);
    expect((await server.json("/api/reminders")).status).toBe(401);
    expect((await server.json("/api/reminders?limit=500", { headers })).status).toBe(400);
  });
});
