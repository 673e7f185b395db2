import { handleOnPlatform, submissionKey } from "@curate/core";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed, intakeTableCounts } from "../../test/factories.ts";
import { type FakeTelegramChat, startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { createTelegramBotApi } from "../clients/telegram-bot.ts";
import { moderationHistory, sourceCursors, submissionFeeds, submissions } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { TelegramMentionSource } from "../sources/telegram.ts";
import { createIntake } from "./runtime.ts";

const TOKEN = "7000000001:AAH-intake-bot-secret-token-0123";
const key = (chat: FakeTelegramChat, message: Record<string, unknown>) =>
  submissionKey("telegram", `${chat.id}:${message.message_id}`);

let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let server: TestServer;
let source: TelegramMentionSource;
const waits: number[] = [];

const pass = () => server.intake.runPass(source);
const cursor = async () =>
  (await server.db.select().from(sourceCursors).where(eq(sourceCursors.sourceKey, source.key)))[0]?.cursor ??
  null;
const linksOf = (submissionId: string) =>
  server.db
    .select()
    .from(submissionFeeds)
    .where(eq(submissionFeeds.submissionId, submissionId))
    .orderBy(asc(submissionFeeds.feedId));
const getUpdatesCalls = () => telegram.requests.filter((request) => request.path.endsWith("/getUpdates"));

const tableCounts = () => intakeTableCounts(server.db);

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TOKEN, botUsername: "curate_intake_bot" });
  server = await startTestServer({
    TELEGRAM_INTAKE_BOT_TOKEN: TOKEN,
    TELEGRAM_API_BASE_URL: telegram.apiRoot,
  });
  source = new TelegramMentionSource({
    api: createTelegramBotApi({
      apiRoot: telegram.apiRoot,
      token: TOKEN,
      retries: 2,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }),
  });
  await insertFeed(server.db, {
    id: "rust",
    approvers: { telegram: ["mod_mia"], twitter: ["copycat"] },
  });
});

afterAll(async () => {
  await server.close();
  await telegram.close();
});

describe("Telegram intake by polling", () => {
  const group = () => telegram.chat({ type: "supergroup", title: "Rust Readers", username: "rustreaders" });

  it("registers the bot's source when TELEGRAM_INTAKE_BOT_TOKEN is set, polling while PUBLIC_URL is local", () => {
    const registered = server.intake.mentionSources.find((candidate) => candidate.platform === "telegram");
    expect(registered?.key).toBe(source.key);
    expect(server.intake.telegram?.webhook).toBeNull();
  });

  it("submits the message a `!submit #feed` reply answers, with its links written out", async () => {
    const chat = group();
    const author = telegram.user("ferris_fan", "Fern", "Iris");
    const curator = telegram.user("cat_curates");
    const text = "🦀 New: async traits are stable, see the release notes";
    const { message: original } = telegram.send(chat, author, {
      text,
      entities: [
        { type: "bold", offset: 3, length: 4 },
        {
          type: "text_link",
          offset: text.indexOf("release notes"),
          length: "release notes".length,
          url: "https://blog.rust-lang.org/2025/async-traits",
        },
      ],
    });
    const { message: submit } = telegram.send(chat, curator, {
      text: "!submit #rust worth a read",
      replyTo: original,
    });
    telegram.send(chat, curator, { text: "just chatting, no command" });

    const run = await pass();
    expect(run).toMatchObject({ read: 3, submitted: 1 });
    expect(getUpdatesCalls().at(-1)?.body).toMatchObject({
      limit: 100,
      timeout: 0,
      allowed_updates: ["message", "channel_post"],
    });

    const [stored] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(chat, original)));
    expect(stored).toMatchObject({
      platform: "telegram",
      content:
        "🦀 New: async traits are stable, see the release notes (https://blog.rust-lang.org/2025/async-traits)",
      username: "ferris_fan",
      authorDisplayName: "Fern Iris",
      userId: String(author.id),
      url: `https://t.me/rustreaders/${original.message_id}`,
      curatorUsername: handleOnPlatform("telegram", "cat_curates"),
      curatorNotes: "worth a read",
      curatorTweetId: key(chat, submit),
    });
    expect((await linksOf(stored.tweetId)).map((link) => [link.feedId, link.status])).toEqual([
      ["rust", "pending"],
    ]);
  });

  it("saves the offset after the updates are stored, and the next poll confirms them with it", async () => {
    const saved = await cursor();
    const lastUpdate = Number(saved) - 1;
    expect(telegram.pendingUpdates()).toBe(3);
    expect(lastUpdate).toBeGreaterThan(0);
    await pass();
    expect(getUpdatesCalls().at(-1)?.body.offset).toBe(Number(saved));
    expect(telegram.pendingUpdates()).toBe(0);
  });

  it("applies `!approve` from the feed's Telegram approver only, not from the same name on X", async () => {
    const chat = group();
    const { message: original } = telegram.send(chat, telegram.user("poster"), { text: "Cargo tips" });
    const { message: submit } = telegram.send(chat, telegram.user("cat_curates"), {
      text: "!submit #rust",
      replyTo: original,
    });
    telegram.send(chat, telegram.user("copycat"), { text: "!approve", replyTo: submit });
    await pass();
    expect((await linksOf(key(chat, original)))[0].status).toBe("pending");

    telegram.send(chat, telegram.user("mod_mia"), { text: "!approve #rust lovely", replyTo: submit });
    expect(await pass()).toMatchObject({ moderated: 1 });
    expect((await linksOf(key(chat, original)))[0].status).toBe("approved");
    const history = await server.db
      .select()
      .from(moderationHistory)
      .where(eq(moderationHistory.submissionId, key(chat, original)));
    expect(history.map((row) => [row.action, row.moderatorAccountId, row.note])).toEqual([
      ["approve", handleOnPlatform("telegram", "mod_mia"), "lovely"],
    ]);
  });

  it("keeps a photo by its file id (never a URL with the token) and gives a private group's message no link", async () => {
    const chat = telegram.chat({ type: "supergroup", title: "Mods only" });
    const { message: photo } = telegram.send(chat, telegram.user(null, "Dee"), {
      caption: "Benchmarks, see chart",
      caption_entities: [{ type: "text_link", offset: 16, length: 5, url: "https://bench.example/c" }],
      photo: [
        { file_id: "AgAD-small", file_unique_id: "u1", width: 90, height: 51 },
        { file_id: "AgAD-large", file_unique_id: "u3", width: 1280, height: 720 },
        { file_id: "AgAD-mid", file_unique_id: "u2", width: 320, height: 180 },
      ],
    });
    telegram.send(chat, telegram.user("cat_curates"), { text: "!submit #rust", replyTo: photo });
    await pass();
    const [stored] = await server.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(chat, photo)));
    expect(stored).toMatchObject({
      content: "Benchmarks, see chart (https://bench.example/c)",
      username: "Dee",
      // A private chat's messages have no public address.
      url: null,
      media: [{ url: "telegram-file:AgAD-large", type: "image", alt: null }],
    });
    expect(JSON.stringify(stored)).not.toContain(TOKEN.split(":")[1]);
  });

  it("stores nothing twice when the same updates are delivered again", async () => {
    const chat = group();
    const { message: original } = telegram.send(chat, telegram.user("poster"), { text: "Clippy lints" });
    const { update } = telegram.send(chat, telegram.user("cat_curates"), {
      text: "!submit #rust",
      replyTo: original,
    });
    const saved = await cursor();
    await pass();
    // The next poll confirms them: Telegram forgets them.
    expect(await pass()).toMatchObject({ read: 0 });
    const before = await tableCounts();
    // As after a crash between storing and saving the offset: the same update comes back.
    await server.db
      .update(sourceCursors)
      .set({ cursor: saved })
      .where(eq(sourceCursors.sourceKey, source.key));
    telegram.rawUpdate(update);
    expect(await pass()).toMatchObject({ read: 1, submitted: 0 });
    expect(await tableCounts()).toEqual(before);
  });

  it("waits as long as a 429 says (`parameters.retry_after`) and then reads the updates", async () => {
    const chat = group();
    const { message: original } = telegram.send(chat, telegram.user("poster"), { text: "Miri finds UB" });
    telegram.send(chat, telegram.user("cat_curates"), { text: "!submit #rust", replyTo: original });
    telegram.failNext(429, "Too Many Requests: retry after 7", { retry_after: 7 });
    waits.length = 0;
    expect(await pass()).toMatchObject({ read: 2, submitted: 1 });
    expect(waits).toEqual([7000]);
    expect(await linksOf(key(chat, original))).toHaveLength(1);
  });

  it("keeps the offset when Telegram stays unreachable, so the next pass reads the same updates", async () => {
    const chat = group();
    const { message: original } = telegram.send(chat, telegram.user("poster"), { text: "Polonius lands" });
    telegram.send(chat, telegram.user("cat_curates"), { text: "!submit #rust", replyTo: original });
    const saved = await cursor();
    for (let i = 0; i < 3; i++) telegram.failNext(502, "Bad Gateway");
    await expect(pass()).rejects.toThrow(/Telegram Bot API answered 502/);
    expect(await cursor()).toBe(saved);
    expect(await linksOf(key(chat, original))).toHaveLength(0);
    expect(await pass()).toMatchObject({ read: 2, submitted: 1 });
    expect(Number(await cursor())).toBeGreaterThan(Number(saved));
  });

  it("never writes the bot token into errors", async () => {
    for (let i = 0; i < 3; i++) telegram.failNext(503, "Service Unavailable");
    const error = await pass().catch((caught: unknown) => caught);
    expect(String(error)).not.toContain(TOKEN.split(":")[1]);
    await pass();
  });

  it("skips a malformed update and still steps past it", async () => {
    const chat = group();
    const broken = telegram.rawUpdate({ message: { message_id: "twelve", chat, text: "!submit #rust" } });
    const { message: original } = telegram.send(chat, telegram.user("poster"), { text: "Const generics" });
    telegram.send(chat, telegram.user("cat_curates"), { text: "!submit #rust", replyTo: original });
    expect(await pass()).toMatchObject({ read: 2, submitted: 1 });
    expect(Number(await cursor())).toBeGreaterThan(Number(broken.update_id) + 1);
  });

  it("lets one worker poll at a time: a second pass meanwhile skips instead of meeting a 409", async () => {
    const logger = createLogger("silent");
    const first = createIntake(server.db, server.env, logger, { telemetry: server.telemetry });
    const second = createIntake(server.db, server.env, logger, { telemetry: server.telemetry });
    const chat = group();
    const { message: original } = telegram.send(chat, telegram.user("poster"), { text: "Edition 2024" });
    telegram.send(chat, telegram.user("cat_curates"), { text: "!submit #rust", replyTo: original });

    const release = telegram.holdNextPoll();
    const callsBefore = getUpdatesCalls().length;
    const running = first.runPass(first.telegram!.source);
    await expect.poll(() => getUpdatesCalls().length).toBe(callsBefore + 1);
    expect(await second.runPass(second.telegram!.source)).toEqual({
      read: 0,
      submitted: 0,
      moderated: 0,
      skipped: true,
    });
    release();
    expect(await running).toMatchObject({ read: 2, submitted: 1 });
    expect(telegram.conflicts()).toBe(0);
    expect(getUpdatesCalls().length).toBe(callsBefore + 1);
    // The lock is free again once the pass is over.
    expect(await second.runPass(second.telegram!.source)).toMatchObject({ read: 0 });
    expect(getUpdatesCalls().length).toBe(callsBefore + 2);
  });
});

describe("Telegram intake by webhook", () => {
  const SECRET = "hook-secret_0123456789";
  let hooked: TestServer;
  let webhookTelegram: Awaited<ReturnType<typeof startFakeTelegram>>;

  beforeAll(async () => {
    webhookTelegram = await startFakeTelegram({ token: TOKEN });
    hooked = await startTestServer({
      TELEGRAM_INTAKE_BOT_TOKEN: TOKEN,
      TELEGRAM_API_BASE_URL: webhookTelegram.apiRoot,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      PUBLIC_URL: "https://curate.example.org",
      ALLOW_PUBLIC_TRIAL: "true",
    });
    await insertFeed(hooked.db, { id: "rust" });
  });

  afterAll(async () => {
    await hooked.close();
    await webhookTelegram.close();
  });

  const deliver = (update: unknown, secret?: string) =>
    hooked.json("/api/telegram/webhook", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(secret === undefined ? {} : { "x-telegram-bot-api-secret-token": secret }),
      },
      body: JSON.stringify(update),
    });

  it("points Telegram at the webhook with its secret instead of polling", async () => {
    const telegramIntake = hooked.intake.telegram!;
    expect(await hooked.intake.runPass(telegramIntake.source)).toMatchObject({ read: 0 });
    expect(webhookTelegram.webhook()).toEqual({
      url: "https://curate.example.org/api/telegram/webhook",
      secret_token: SECRET,
      allowed_updates: ["message", "channel_post"],
    });
    expect(webhookTelegram.requests.some((request) => request.path.endsWith("/getUpdates"))).toBe(false);
  });

  it("takes an update with the right secret into the same intake, once however often it comes", async () => {
    const chat = webhookTelegram.chat({ type: "channel", title: "Daily Links", username: "dailylinks" });
    const { message: original } = webhookTelegram.send(chat, null, {
      text: "Rust 2.0 is not happening",
      senderChat: chat,
    });
    const { update } = webhookTelegram.send(chat, null, {
      text: "!submit #rust",
      senderChat: chat,
      replyTo: original,
    });
    const first = await deliver(update, SECRET);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ read: 1, submitted: 1, moderated: 0 });
    expect((await deliver(update, SECRET)).body.data).toMatchObject({ submitted: 0 });
    const [stored] = await hooked.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(chat, original)));
    expect(stored).toMatchObject({
      username: "dailylinks",
      authorDisplayName: "Daily Links",
      curatorUsername: handleOnPlatform("telegram", "dailylinks"),
    });
  });

  it("refuses a wrong or missing secret with a 401 envelope and stores nothing", async () => {
    const chat = webhookTelegram.chat({ type: "supergroup", title: "Quiet" });
    const { message: original } = webhookTelegram.send(chat, webhookTelegram.user("poster"), { text: "x" });
    const { update } = webhookTelegram.send(chat, webhookTelegram.user("cat"), {
      text: "!submit #rust",
      replyTo: original,
    });
    for (const secret of ["hook-secret_0123456788", undefined]) {
      const refused = await deliver(update, secret);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ success: false, error: { code: "UNAUTHENTICATED" } });
    }
    const stored = await hooked.db
      .select()
      .from(submissions)
      .where(eq(submissions.tweetId, key(chat, original)));
    expect(stored).toEqual([]);
  });

  it("refuses an update that is no update, and one larger than an update can be", async () => {
    expect((await deliver({ message: { text: "no id" } }, SECRET)).status).toBe(400);
    const huge = { update_id: 1, message: { text: "x".repeat(300 * 1024) } };
    expect((await deliver(huge, SECRET)).status).toBe(413);
  });

  it("answers 200 to a delivery it cannot read, so Telegram does not send it again", async () => {
    const answer = await deliver({ update_id: 77, message: { message_id: "?", chat: null } }, SECRET);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ read: 0, submitted: 0, moderated: 0 });
  });

  it("takes no deliveries on a deployment that polls: the path is an ordinary session-guarded one", async () => {
    const answer = await server.json("/api/telegram/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
      body: JSON.stringify({ update_id: 1 }),
    });
    expect(answer.status).toBe(401);
  });
});
