import { submissionKey } from "@curate/core";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeX } from "../../test/fake-x.ts";
import { startFakeBluesky } from "../../test/fakes/bluesky.ts";
import { startFakeMastodon } from "../../test/fakes/mastodon.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { processingJobs, processingSteps } from "../db/schema.ts";
import { createXBudget } from "../intake/x-budget-store.ts";
import { createLogger } from "../logger.ts";
import { createAcknowledgementSender } from "./acknowledgement-sender.ts";

/**
 * Acknowledgements end to end: a `!submit` read from each network's fake, the reply job on the processing engine,
 * and the reply the fake received in its own wire format — once, however often the mentions are read again.
 */
const X_APP_TOKEN = "x-app-bearer";
const X_USER_TOKEN = "x-bot-user-token";
const BSKY_BOT = "curatebot.bsky.social";
const BSKY_PASSWORD = "abcd-efgh-ijkl-mnop";
const MASTODON_TOKEN = "mastodon-bot-token";
const MASTODON_DOMAIN = "mastodon.test";
const TELEGRAM_TOKEN = "7000000002:AAH-ack-bot-secret-token-0456";
const INTERVAL_MS = 400;
const CAP = 3;

let server: TestServer;
let x: Awaited<ReturnType<typeof startFakeX>>;
let bluesky: Awaited<ReturnType<typeof startFakeBluesky>>;
let mastodon: Awaited<ReturnType<typeof startFakeMastodon>>;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
const creatorKey = newKey();

const everyNetwork = { twitter: true, bluesky: true, mastodon: true, telegram: true };

beforeAll(async () => {
  x = await startFakeX({ bearerToken: X_APP_TOKEN, botUsername: "curatebot", userToken: X_USER_TOKEN });
  bluesky = await startFakeBluesky({ handle: BSKY_BOT, appPassword: BSKY_PASSWORD });
  mastodon = await startFakeMastodon({
    accessToken: MASTODON_TOKEN,
    botUsername: "curate",
    domain: MASTODON_DOMAIN,
  });
  telegram = await startFakeTelegram({ token: TELEGRAM_TOKEN });
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      BOT_HANDLE: "curatebot",
      X_API_BASE_URL: x.url,
      X_BEARER_TOKEN: X_APP_TOKEN,
      X_USER_ACCESS_TOKEN: X_USER_TOKEN,
      BLUESKY_SERVICE_URL: bluesky.url,
      BLUESKY_IDENTIFIER: BSKY_BOT,
      BLUESKY_APP_PASSWORD: BSKY_PASSWORD,
      MASTODON_BASE_URL: mastodon.url,
      MASTODON_ACCESS_TOKEN: MASTODON_TOKEN,
      MASTODON_BOT_ACCT: `curate@${MASTODON_DOMAIN}`,
      TELEGRAM_INTAKE_BOT_TOKEN: TELEGRAM_TOKEN,
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      ACK_MIN_INTERVAL_MS: String(INTERVAL_MS),
      // One attempt: a failed reply ends its job at once, for the moderator to retry.
      PROCESSING_MAX_ATTEMPTS: "1",
      ACKS_PER_FEED_PER_HOUR: String(CAP),
    },
    { worker: {} },
  );
  const acknowledgements = { networks: everyNetwork, onSubmit: true, onApprove: true };
  await insertFeed(server.db, {
    id: "acked",
    createdBy: creatorKey.implicitAccountId,
    config: { acknowledgements },
  });
  await insertFeed(server.db, {
    id: "readers",
    createdBy: creatorKey.implicitAccountId,
    approvers: { telegram: ["dana"] },
    config: { acknowledgements },
  });
  for (const id of ["fedi", "relays", "capped"]) {
    await insertFeed(server.db, {
      id,
      createdBy: creatorKey.implicitAccountId,
      config: { acknowledgements },
    });
  }
  await insertFeed(server.db, {
    id: "quiet",
    createdBy: creatorKey.implicitAccountId,
    config: { acknowledgements: { ...acknowledgements, networks: { ...everyNetwork, bluesky: false } } },
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([x?.close(), bluesky?.close(), mastodon?.close(), telegram?.close()]);
});

const ackJobs = (submissionId: string) =>
  server.db
    .select()
    .from(processingJobs)
    .where(and(eq(processingJobs.submissionId, submissionId), eq(processingJobs.kind, "acknowledgement")))
    .orderBy(asc(processingJobs.createdAt));

/** Reads every network's mentions, then waits until no acknowledgement is waiting or running. */
async function intakeAndSettle() {
  await server.worker?.runIntakeNow();
  await settle();
}

async function settle() {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const open = await server.db
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(
        and(
          eq(processingJobs.kind, "acknowledgement"),
          inArray(processingJobs.status, ["pending", "processing"]),
        ),
      );
    if (open.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${open.length} acknowledgements never finished`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stepsOf = (jobId: string) =>
  server.db.select().from(processingSteps).where(eq(processingSteps.jobId, jobId));

describe("acknowledgements on the post's own network", () => {
  it("replies on X to the curator's post, once however often the mentions are read", async () => {
    const original = x.post("alice", "A thread on open protocols");
    const submit = x.post("sam", "!submit @curatebot #acked", original);
    await intakeAndSettle();
    await intakeAndSettle();

    expect(x.posted).toEqual([
      {
        id: expect.any(String),
        text: "Submitted to #acked",
        inReplyTo: submit,
        receivedAt: expect.any(Number),
      },
    ]);
    const [job] = await ackJobs(original);
    expect(job).toMatchObject({ status: "completed", feedId: "acked" });
    const [step] = await stepsOf(job.id);
    expect(step).toMatchObject({ pluginName: "acknowledge", stepName: "acknowledge · X", status: "success" });
    expect(await ackJobs(original)).toHaveLength(1);
  });

  it("stops a feed at its hourly cap: the reply past it fails saying so, and is not sent", async () => {
    const before = x.posted.length;
    const originals = Array.from({ length: CAP + 1 }, (_, i) => x.post("alice", `Capped post ${i}`));
    for (const original of originals) x.post("sam", "!submit @curatebot #capped", original);
    await intakeAndSettle();
    // A loaded machine once ended settle() before the last submission's job was queued: wait for every one of them.
    await expect
      .poll(async () => {
        const jobs = await server.db
          .select({ status: processingJobs.status })
          .from(processingJobs)
          .where(and(eq(processingJobs.feedId, "capped"), eq(processingJobs.kind, "acknowledgement")));
        return jobs.filter((job) => job.status !== "pending" && job.status !== "processing").length;
      })
      .toBe(CAP + 1);

    expect(x.posted.slice(before).map((post) => post.text)).toEqual(Array(CAP).fill("Submitted to #capped"));
    const steps = await server.db
      .select({ status: processingSteps.status, error: processingSteps.error })
      .from(processingSteps)
      .innerJoin(processingJobs, eq(processingJobs.id, processingSteps.jobId))
      .where(and(eq(processingJobs.feedId, "capped"), eq(processingJobs.kind, "acknowledgement")));
    expect(steps.filter((step) => step.status === "success")).toHaveLength(CAP);
    expect(steps.filter((step) => step.status === "failed")).toEqual([
      {
        status: "failed",
        error: {
          code: "ACK_LIMIT_REACHED",
          retryable: false,
          message: `This feed has had ${CAP} acknowledgements this hour, the most it may; this one was not sent.`,
        },
      },
    ]);
  });

  it("replies on Bluesky with the reply's root and parent refs, and not where the feed turned Bluesky off", async () => {
    const root = bluesky.addPost({ handle: "erin.bsky.social", text: "Relays explained" });
    const submit = bluesky.addPost({
      handle: "finn.bsky.social",
      text: `!submit @${BSKY_BOT} #acked`,
      replyTo: root,
    });
    const quiet = bluesky.addPost({ handle: "erin.bsky.social", text: "PDS hosting notes" });
    bluesky.addPost({ handle: "finn.bsky.social", text: `!submit @${BSKY_BOT} #quiet`, replyTo: quiet });
    await intakeAndSettle();
    await intakeAndSettle();

    const replies = bluesky.created();
    expect(replies).toHaveLength(1);
    const parent = bluesky.post(submit).view;
    const first = bluesky.post(root).view;
    expect(replies[0].record).toMatchObject({
      $type: "app.bsky.feed.post",
      text: "Submitted to #acked",
      reply: { root: { uri: first.uri, cid: first.cid }, parent: { uri: parent.uri, cid: parent.cid } },
    });
    expect(await ackJobs(submissionKey("bluesky", quiet))).toHaveLength(0);
  });

  it("fails visibly when Mastodon answers 500, and the moderator's retry replies once", async () => {
    const original = mastodon.post({ by: "erin", text: "Notes on relays" });
    const submit = mastodon.post({ by: "dan", inReplyTo: original.id, text: "!submit @curate #fedi" });
    mastodon.failPath("/api/v1/statuses", 500, "Internal Server Error");
    await intakeAndSettle();

    const [failed] = await ackJobs(submissionKey("mastodon", original.uri));
    expect(failed.status).toBe("completed_with_errors");
    const [failedStep] = await stepsOf(failed.id);
    expect(failedStep).toMatchObject({
      status: "failed",
      error: { code: "ACK_UNAVAILABLE", retryable: true },
    });
    expect(mastodon.botPosts).toHaveLength(0);

    const { cookie } = await signIn(server, creatorKey);
    const { status } = await server.json(`/api/processing/jobs/${failed.id}/retry`, {
      method: "POST",
      headers: sessionHeaders(server, cookie),
    });
    expect(status).toBe(201);
    await settle();
    await intakeAndSettle();

    const jobs = await ackJobs(submissionKey("mastodon", original.uri));
    expect(jobs.map((job) => [job.status, job.retryOfJobId])).toEqual([
      ["completed_with_errors", null],
      ["completed", failed.id],
    ]);
    expect(mastodon.botPosts).toHaveLength(1);
    expect(mastodon.botPosts[0]).toMatchObject({ in_reply_to_id: submit.id, visibility: "unlisted" });
    const posted = mastodon.requests.filter((r) => r.method === "POST" && r.path === "/api/v1/statuses");
    expect(posted.at(-1)?.body).toEqual({
      status: "Submitted to #fedi",
      in_reply_to_id: submit.id,
      visibility: "unlisted",
    });
  });

  it("holds the Mastodon bot for as long as a 429 asks, then replies", async () => {
    const first = mastodon.post({ by: "erin", text: "Moderation tools" });
    mastodon.post({ by: "dan", inReplyTo: first.id, text: "!submit @curate #relays" });
    mastodon.failPath("/api/v1/statuses", 429, "Too many requests", 1, { "retry-after": "1" });
    await intakeAndSettle();
    const [limited] = await ackJobs(submissionKey("mastodon", first.uri));
    const [limitedStep] = await stepsOf(limited.id);
    expect(limitedStep.error).toMatchObject({ retryable: true, retryAfterMs: expect.any(Number) });
    const refusedAt = mastodon.requests.filter((r) => r.path === "/api/v1/statuses").at(-1)?.receivedAt ?? 0;

    const second = mastodon.post({ by: "erin", text: "Instance blocklists" });
    const secondSubmit = mastodon.post({ by: "dan", inReplyTo: second.id, text: "!submit @curate #relays" });
    await intakeAndSettle();
    const sentAt = mastodon.requests.filter((r) => r.path === "/api/v1/statuses").at(-1)?.receivedAt ?? 0;
    expect(sentAt - refusedAt).toBeGreaterThanOrEqual(900);
    expect(mastodon.botPosts.at(-1)).toMatchObject({ in_reply_to_id: secondSubmit.id });
  });

  it("replies on Telegram to a submission and to its auto-approval, spaced by the bot's interval", async () => {
    const chat = telegram.chat({ type: "supergroup", title: "Readers", username: "readers" });
    const author = telegram.user("ferris_fan");
    const dana = telegram.user("dana");
    const { message: original } = telegram.send(chat, author, { text: "Async traits are stable" });
    const { message: submit } = telegram.send(chat, dana, { text: "!submit #readers", replyTo: original });
    const repliesAsked = Date.now();
    await intakeAndSettle();
    await intakeAndSettle();

    const replies = telegram.sent.filter((message) => message.token === TELEGRAM_TOKEN);
    expect(
      replies
        .map((reply) => [reply.payload.chat_id, reply.visible, reply.payload.reply_parameters])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    ).toEqual(
      ["Approved for #readers", "Submitted to #readers"].map((text) => [
        String(chat.id),
        text,
        { message_id: submit.message_id, allow_sending_without_reply: true },
      ]),
    );
    const sends = telegram.requests.filter((r) => r.path.endsWith("/sendMessage")).map((r) => r.receivedAt);
    expect(sends).toHaveLength(2);
    // Each reply takes the bot's next slot, none earlier than they were asked for, and is sent no earlier than its
    // slot: the second came at least one interval after, however busy the machine.
    expect(Math.max(...sends) - repliesAsked).toBeGreaterThanOrEqual(INTERVAL_MS);
    const jobs = await ackJobs(submissionKey("telegram", `${chat.id}:${original.message_id}`));
    expect(jobs.map((job) => job.idempotencyKey).sort()).toEqual([
      `acknowledgement:approved:telegram:${chat.id}:${original.message_id}:readers`,
      `acknowledgement:submitted:telegram:${chat.id}:${original.message_id}:readers`,
    ]);

    // The processing tab's row shows the pipeline's job; the replies are listed with the post's jobs.
    const { cookie } = await signIn(server, creatorKey);
    const key = submissionKey("telegram", `${chat.id}:${original.message_id}`);
    const page = await server.json("/api/processing/feeds/readers/submissions?limit=5", {
      headers: sessionHeaders(server, cookie),
    });
    const row = page.body.data.items.find((r: { submissionId: string }) => r.submissionId === key);
    const [approval] = await server.db
      .select()
      .from(processingJobs)
      .where(and(eq(processingJobs.submissionId, key), eq(processingJobs.kind, "approval")));
    expect(row.latestJob.id).toBe(approval.id);
  });
});

describe("a network without the bot's credentials", () => {
  it("fails the reply with a message naming what to set, without calling anyone", async () => {
    const sender = createAcknowledgementSender(
      {
        X_API_BASE_URL: "http://127.0.0.1:9",
        BLUESKY_SERVICE_URL: "http://127.0.0.1:9",
        TELEGRAM_API_BASE_URL: "http://127.0.0.1:9",
      },
      createLogger("silent"),
    );
    const input = {
      network: "twitter",
      kind: "submitted",
      replyTo: "1",
      text: "Submitted to #acked",
    } as const;
    await expect(sender.send(input, "key", AbortSignal.timeout(1000))).rejects.toMatchObject({
      code: "ACK_NOT_CONFIGURED",
      retryable: false,
      message:
        "Acknowledgements on X need X_USER_ACCESS_TOKEN (the bot account's user token with tweet.write) in the server's environment.",
    });
    await expect(
      sender.send({ ...input, network: "mastodon" }, "key", AbortSignal.timeout(1000)),
    ).rejects.toMatchObject({ code: "ACK_NOT_CONFIGURED" });
  });
});

describe("the operator's X budget", () => {
  it("counts a reply on X, and past the budget the reply waits for the next hour, unsent", async () => {
    const sender = createAcknowledgementSender(
      {
        X_API_BASE_URL: x.url,
        X_USER_ACCESS_TOKEN: X_USER_TOKEN,
        BLUESKY_SERVICE_URL: "http://127.0.0.1:9",
        TELEGRAM_API_BASE_URL: "http://127.0.0.1:9",
      },
      createLogger("silent"),
      createXBudget(server.db, { limit: 1, clock: () => new Date("2031-05-06T07:40:00Z") }),
    );
    const parent = x.post("budget_curator", "A post worth answering");
    const sent = x.posted.length;
    const input = {
      network: "twitter",
      kind: "submitted",
      replyTo: parent,
      text: "Submitted to #acked",
    } as const;
    await sender.send(input, "first", AbortSignal.timeout(5000));
    await expect(
      sender.send(
        { ...input, kind: "approved", text: "Approved for #acked" },
        "second",
        AbortSignal.timeout(5000),
      ),
    ).rejects.toMatchObject({
      code: "X_BUDGET_SPENT",
      retryable: true,
      retryAfterMs: 20 * 60_000,
      message: expect.stringMatching(/X API budget for this hour is spent/),
    });
    expect(x.posted.length).toBe(sent + 1);
  });
});
