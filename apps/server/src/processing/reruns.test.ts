import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeCrosspost } from "../../test/fakes/crosspost.ts";
import { startFakeDiscord } from "../../test/fakes/discord.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { nearSecretKey, newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { feeds, processingJobs, publications, submissionFeeds } from "../db/schema.ts";

/**
 * Issue 27: the publish ledger is the truth of what is live on each channel. Every re-run — Retry Failed, Retry
 * Step, Reprocess, Tweak, of the old job or of a newer one — edits the live publication of its branch (or leaves
 * it), so the fakes of Telegram, Discord and a webhook receiver hold at most one live copy per branch at every
 * point; only "publish again as a new post" makes a second one.
 */

const TOKEN = "123456789:AAH-reruns-test-token-for-the-fake";
const WEBHOOK = {
  id: "1270000000000000001",
  token: "reruns-webhook-token",
  channelId: "1270000000000000099",
};
const HOOK_SECRET = "whsec_reruns";
let server: TestServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let crosspost: Awaited<ReturnType<typeof startFakeCrosspost>>;
const signer = newKey();
const TARGET = { platform: "twitter", userId: "1500000000000000001" };
const ownerKey = newKey();
const adminKey = newKey();
let owner: string;
/** An admin of "copies": a moderator with an hourly allowance of their own. */
let admin: string;
let outsider: string;

const stream = (id: string) => ({
  id,
  name: id,
  description: `About ${id}`,
  outputs: {
    stream: {
      enabled: true,
      transform: [
        {
          plugin: "@curate/object-transform",
          config: { mappings: { title: "{{content}}", link: "{{url}}" } },
        },
      ],
      distribute: [
        {
          plugin: "@curate/telegram",
          config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@curate_news" },
        },
        { plugin: "@curate/discord", config: { webhookUrl: "{{DISCORD_WEBHOOK}}" } },
        { plugin: "@curate/webhook", config: { url: receiver.url, secret: "{{HOOK_SECRET}}" } },
      ],
    },
  },
});

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TOKEN, chats: ["@curate_news", "@wind_news"] });
  discord = await startFakeDiscord({ webhooks: [WEBHOOK] });
  receiver = await startWebhookReceiver(HOOK_SECRET);
  crosspost = await startFakeCrosspost({
    accounts: { "curate.near": { keys: [signer.publicKey], targets: [TARGET] } },
  });
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      PROCESSING_MAX_ATTEMPTS: "1",
      REPUBLISH_PER_ACCOUNT_PER_HOUR: "2",
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      DISCORD_API_BASE_URL: discord.apiBaseUrl,
      TELEGRAM_BOT_TOKEN: TOKEN,
      DISCORD_WEBHOOK: `${discord.apiBaseUrl}/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
      CROSSPOST_API_URL: crosspost.url,
      CROSSPOST_KEY: nearSecretKey(signer),
      PLUGIN_SECRETS: "TELEGRAM_BOT_TOKEN,DISCORD_WEBHOOK,CROSSPOST_KEY",
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    { worker: { feedSecrets: async (): Promise<Record<string, string>> => ({ HOOK_SECRET }) } },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  admin = (await signIn(server, adminKey)).cookie;
  outsider = (await signIn(server)).cookie;
  await insertFeed(server.db, {
    id: "crossposts",
    createdBy: ownerKey.implicitAccountId,
    config: {
      ...stream("crossposts"),
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            {
              plugin: "@curate/crosspost",
              config: { signerId: "curate.near", keyPair: "{{CROSSPOST_KEY}}", targets: [TARGET] },
            },
          ],
        },
      },
    },
  });
  for (const id of ["reruns", "copies", "badges", "moves"]) {
    await insertFeed(server.db, {
      id,
      createdBy: ownerKey.implicitAccountId,
      admins: [adminKey.implicitAccountId],
      config: stream(id),
    });
  }
});

afterAll(async () => {
  await server.close();
  await Promise.all([telegram.close(), discord.close(), receiver.close(), crosspost.close()]);
});

beforeEach(() => {
  telegram.reset();
  discord.reset();
  receiver.reset();
  crosspost.reset();
});

async function post(path: string, cookie: string | null, body?: unknown) {
  return server.json(path, {
    method: "POST",
    headers: cookie
      ? sessionHeaders(server, cookie)
      : { "Content-Type": "application/json", Origin: server.baseUrl },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const get = (path: string, cookie = owner) => server.json(path, { headers: sessionHeaders(server, cookie) });

async function finished(jobId: string) {
  let row: typeof processingJobs.$inferSelect | undefined;
  await expect
    .poll(async () => {
      [row] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
      return row?.status;
    })
    .toMatch(/^(completed|failed|completed_with_errors|cancelled)$/);
  return row as typeof processingJobs.$inferSelect;
}

async function approve(feedId: string, content: string) {
  const { tweetId } = await insertSubmission(server.db, { content, feeds: [{ feedId }] });
  const { status, body } = await post("/api/moderate", owner, {
    submissionId: tweetId,
    feedId,
    action: "approve",
  });
  expect(status).toBe(200);
  return { tweetId, job: await finished(body.data.processingJobId) };
}

async function stepsOf(jobId: string) {
  const { body } = await get(`/api/processing/jobs/${jobId}/steps`);
  // biome-ignore lint/suspicious/noExplicitAny: step rows are checked by assertion
  return body.data.steps as Array<Record<string, any>>;
}

/** Runs a follow-up (its answer must be 201) to its end. */
async function rerun(path: string, body?: unknown) {
  const answer = await post(path, owner, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return finished(answer.body.data.job.id);
}

/** At most one live copy per branch on every channel: the invariant. */
function expectOneLiveCopyEach() {
  expect(telegram.sent).toHaveLength(1);
  expect(discord.posted).toHaveLength(1);
  expect(receiver.items.size).toBe(1);
}

/** The messages editMessageText was asked to edit (an unchanged text is an edit that changes nothing). */
const editedMessages = () =>
  telegram.requests.filter((r) => r.path.endsWith("/editMessageText")).map((r) => r.body.message_id);

const ledgerOf = async (tweetId: string, feedId: string) =>
  (await get(`/api/submissions/${tweetId}/publications?feedId=${feedId}`)).body.data.items as Array<
    Record<string, unknown>
  >;

describe("re-runs edit the live publication instead of posting again", () => {
  it("keeps one live Discord message (not 7) through re-runs of an old failed job and of newer ones", async () => {
    discord.answerNext({ status: 400, body: { code: 50035, message: "Invalid Form Body" } });
    const { tweetId, job: first } = await approve("reruns", "Solar prices fell again");
    expect(first.status).toBe("completed_with_errors");
    expect(discord.posted).toHaveLength(0);

    // Retry Failed publishes the missing Discord message: every channel now has its one copy.
    const retry = await rerun(`/api/processing/jobs/${first.id}/retry`);
    expect(retry.status).toBe("completed");
    expectOneLiveCopyEach();
    const [message] = discord.posted;
    const retryDiscord = (await stepsOf(retry.id)).find((step) => step.pluginName === "@curate/discord");

    // The old job again and again: each re-run finds the live message in the ledger and edits it.
    const steps = await stepsOf(first.id);
    const mapping = steps.find((step) => step.pluginName === "@curate/object-transform");
    const failedDiscord = steps.find((step) => step.pluginName === "@curate/discord");
    expect(failedDiscord?.status).toBe("failed");
    const tweak = (title: string) => ({ newInput: JSON.stringify({ ...mapping?.input, content: title }) });
    const reruns: Array<[string, unknown?]> = [
      [`/api/processing/jobs/${first.id}/reprocess`],
      [`/api/processing/steps/${mapping?.id}/tweak`, tweak("Solar prices fell again (corrected)")],
      [`/api/processing/steps/${failedDiscord?.id}/retry`],
      [`/api/processing/jobs/${first.id}/reprocess`],
      // And of the newer jobs.
      [`/api/processing/jobs/${retry.id}/reprocess`],
      [
        `/api/processing/steps/${retryDiscord?.id}/tweak`,
        { newInput: JSON.stringify({ ...retryDiscord?.input, title: "Solar prices fell again, by 20%" }) },
      ],
    ];
    for (const [path, body] of reruns) {
      expect((await rerun(path, body)).status).toBe("completed");
      expectOneLiveCopyEach();
    }
    expect(discord.edits.map((edit) => edit.id)).toEqual(reruns.map(() => message.id));
    expect(discord.message(message.id).embeds[0].title).toBe("Solar prices fell again, by 20%");
    expect(telegram.edited.length).toBeGreaterThanOrEqual(2);

    // Retry Failed of the old job has nothing left to do: Discord was published by its retry.
    const blocked = await post(`/api/processing/jobs/${first.id}/retry`, owner);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toMatch(/^Nothing left to retry: Discord was published since by job/);
    const jobs = await get(`/api/processing/jobs/${tweetId}?feedId=reruns`);
    const listed = jobs.body.data.jobs.find((job: { id: string }) => job.id === first.id);
    expect(listed.retryBlockedReason).toBe(blocked.body.error.message);
    expect(
      jobs.body.data.jobs.filter((job: { retryBlockedReason: string | null }) => job.retryBlockedReason),
    ).toHaveLength(1);

    // The ledger holds one live entry per branch, each moved to the job that last edited it.
    const ledger = await ledgerOf(tweetId, "reruns");
    expect(ledger.map((entry) => [entry.pluginName, entry.status, entry.supersededBy])).toEqual(
      expect.arrayContaining([
        ["@curate/telegram", "published", null],
        ["@curate/discord", "published", null],
        ["@curate/webhook", "published", null],
      ]),
    );
    expect(ledger).toHaveLength(3);
    expect(ledger.find((entry) => entry.pluginName === "@curate/discord")?.branchKey).toBe(
      "@curate/discord|webhook|{{DISCORD_WEBHOOK}}|",
    );
  });

  it("sends a webhook re-run with the publication's delivery id as item.updated", async () => {
    const { job } = await approve("reruns", "Wind keeps growing");
    const [delivery] = receiver.deliveries;
    expect(delivery).toMatchObject({ event: "item.published" });
    await rerun(`/api/processing/jobs/${job.id}/reprocess`);
    expect(receiver.refused).toEqual([]);
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.updates).toEqual([
      expect.objectContaining({
        id: delivery.id,
        event: "item.updated",
        body: expect.objectContaining({ event: "item.updated", delivery: delivery.id }),
      }),
    ]);
    expect(receiver.items.size).toBe(1);
  });

  it("shows in a dry run of a tweak on a failed step the edit of what a later retry published", async () => {
    telegram.failNext(400, "Bad Request: chat not found");
    const { tweetId, job: first } = await approve("reruns", "Hydrogen buses arrive");
    expect(first.status).toBe("completed_with_errors");
    const retry = await rerun(`/api/processing/jobs/${first.id}/retry`);
    expect(retry.status).toBe("completed");
    expect(telegram.sent).toHaveLength(1);

    const failedTelegram = (await stepsOf(first.id)).find((step) => step.pluginName === "@curate/telegram");
    expect(failedTelegram?.status).toBe("failed");
    const newInput = JSON.stringify({ ...failedTelegram?.input, title: "Hydrogen buses arrive (updated)" });
    const dry = await post(`/api/processing/steps/${failedTelegram?.id}/tweak/dry-run`, owner, { newInput });
    expect(dry.status).toBe(200);
    const [ledgerEntry] = (await ledgerOf(tweetId, "reruns")).filter(
      (e) => e.pluginName === "@curate/telegram",
    );
    const channel = dry.body.data.channels.find(
      (c: { pluginName: string }) => c.pluginName === "@curate/telegram",
    );
    expect(channel).toMatchObject({
      status: "rendered",
      action: "editMessageText",
      outcome: "edit",
      request: { message_id: telegram.sent[0].messageId },
      replaces: { jobId: retry.id, publicationId: ledgerEntry.id, reference: { kind: "telegram-message" } },
    });
    expect(telegram.requests.filter((r) => !r.path.endsWith("/sendMessage"))).toHaveLength(0);

    // Published for real, the tweak edits that message.
    await rerun(`/api/processing/steps/${failedTelegram?.id}/tweak`, { newInput });
    expect(telegram.sent).toHaveLength(1);
    expect(telegram.messageText(`${telegram.sent[0].chatId}/${telegram.sent[0].messageId}`)).toContain(
      "(updated)",
    );
  });
});

describe("branches known by their target", () => {
  it("edits what is live after the entries are reordered, and posts anew where a target changed", async () => {
    const { tweetId, job } = await approve("moves", "Wind farms move offshore");
    expectOneLiveCopyEach();
    const before = (await ledgerOf(tweetId, "moves")).find((e) => e.pluginName === "@curate/telegram");

    // The owner moves Telegram to another chat and puts it last: Discord and the webhook keep their keys.
    const config = stream("moves");
    const [telegramEntry, discordEntry, hookEntry] = config.outputs.stream.distribute;
    config.outputs.stream.distribute = [
      discordEntry,
      hookEntry,
      { plugin: telegramEntry.plugin, config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@wind_news" } },
    ];
    await server.db.update(feeds).set({ config }).where(eq(feeds.id, "moves"));
    expect((await rerun(`/api/processing/jobs/${job.id}/reprocess`)).status).toBe("completed");

    expect(discord.posted).toHaveLength(1);
    expect(discord.edits).toHaveLength(1);
    expect(receiver.items.size).toBe(1);
    expect(telegram.sent.map((message) => message.payload.chat_id)).toEqual(["@curate_news", "@wind_news"]);
    // Two targets, two publications: the first one stays listed as it was, and is no older copy of the new one.
    const entries = (await ledgerOf(tweetId, "moves")).filter((e) => e.pluginName === "@curate/telegram");
    expect(entries.map((e) => [e.branchKey, e.status, e.supersededBy]).sort()).toEqual([
      ["@curate/telegram|@curate_news|", "published", null],
      ["@curate/telegram|@wind_news|", "published", null],
    ]);
    expect(entries.find((e) => e.id === before?.id)).toMatchObject({ jobId: job.id });
  });
});

describe("a channel that cannot edit", () => {
  it("leaves the live post as it is on a re-run, saying so, and its dry run says it will", async () => {
    const { tweetId, job } = await approve("crossposts", "Solar roads, again");
    expect(job.status).toBe("completed");
    expect(crosspost.posts).toHaveLength(1);
    const [entry] = await ledgerOf(tweetId, "crossposts");

    const dry = await post(`/api/processing/jobs/${job.id}/reprocess/dry-run`, owner);
    expect(dry.body.data.channels).toEqual([
      expect.objectContaining({
        status: "rendered",
        outcome: "skip",
        replaces: expect.objectContaining({ jobId: job.id, publicationId: entry.id }),
      }),
    ]);

    const again = await rerun(`/api/processing/jobs/${job.id}/reprocess`);
    expect(again.status).toBe("completed");
    expect(crosspost.posts).toHaveLength(1);
    const [step] = await stepsOf(again.id);
    expect(step).toMatchObject({ status: "success", output: { skipped: true } });
    expect(step.output.message).toMatch(
      /^Already published \(https:\/\/.+\) by job [0-9a-f]{8}: Crosspost cannot edit a publication/,
    );
    // The ledger is as it was: the one entry, still the approval's.
    expect(await ledgerOf(tweetId, "crossposts")).toEqual([
      expect.objectContaining({ id: entry.id, jobId: job.id, status: "published" }),
    ]);
  });
});

describe("publish again as a new post", () => {
  it("is for moderators only, confirmed, limited per hour, and its own ledger entry that re-runs then edit", async () => {
    const { tweetId, job } = await approve("copies", "Geothermal in Iceland");
    expectOneLiveCopyEach();
    const telegramEntry = (await ledgerOf(tweetId, "copies")).find(
      (e) => e.pluginName === "@curate/telegram",
    );
    const path = `/api/publications/${telegramEntry?.id}/publish-again`;

    expect((await post(path, null, { confirm: true })).status).toBe(401);
    expect((await post(path, outsider, { confirm: true })).status).toBe(403);
    const unconfirmed = await post(path, owner, {});
    expect(unconfirmed.status).toBe(400);
    expect((await post(path, owner, { confirm: false })).status).toBe(400);
    expect((await post("/api/publications/nope/publish-again", owner, { confirm: true })).status).toBe(404);
    expect(telegram.sent).toHaveLength(1);

    const again = await post(path, owner, { confirm: true });
    expect(again.status).toBe(201);
    expect(again.body.data.job).toMatchObject({ kind: "republish", retryOfJobId: job.id });
    expect((await finished(again.body.data.job.id)).status).toBe("completed");
    // A second Telegram message, and only there.
    expect(telegram.sent).toHaveLength(2);
    expect(discord.posted).toHaveLength(1);
    expect(receiver.items.size).toBe(1);

    const ledger = await ledgerOf(tweetId, "copies");
    const copies = ledger.filter((e) => e.pluginName === "@curate/telegram");
    expect(copies).toHaveLength(2);
    const newest = copies.find((e) => e.jobId === again.body.data.job.id);
    expect(newest).toMatchObject({ status: "published", supersededBy: null });
    expect(copies.find((e) => e.id === telegramEntry?.id)).toMatchObject({ supersededBy: newest?.id });

    // Re-runs edit the newest copy; the first stays as it was.
    await rerun(`/api/processing/jobs/${job.id}/reprocess`);
    expect(telegram.sent).toHaveLength(2);
    expect(editedMessages()).toEqual([telegram.sent[1].messageId]);

    // The hour's allowance is 2: the second use passes, the third is refused.
    expect((await finished((await post(path, owner, { confirm: true })).body.data.job.id)).status).toBe(
      "completed",
    );
    const limited = await post(path, owner, { confirm: true });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(telegram.sent).toHaveLength(3);
  });

  it("lists older copies beside the live one, each retractable in one click, the post staying approved", async () => {
    const { tweetId } = await approve("copies", "Tidal power in Scotland");
    const first = (await ledgerOf(tweetId, "copies")).find((e) => e.pluginName === "@curate/discord");
    const copy = await post(`/api/publications/${first?.id}/publish-again`, admin, { confirm: true });
    await finished(copy.body.data.job.id);
    expect(discord.posted).toHaveLength(2);
    const copies = (await ledgerOf(tweetId, "copies")).filter((e) => e.pluginName === "@curate/discord");
    const live = copies.find((e) => e.supersededBy === null);
    const older = copies.find((e) => e.supersededBy !== null);
    expect(older).toMatchObject({ id: first?.id, supersededBy: live?.id });

    expect((await post(`/api/publications/${older?.id}/retract`, outsider)).status).toBe(403);
    const refusedLive = await post(`/api/publications/${live?.id}/retract`, owner);
    expect(refusedLive.status).toBe(409);
    const retract = await post(`/api/publications/${older?.id}/retract`, admin);
    expect(retract.status).toBe(201);
    expect((await finished(retract.body.data.retractionJobId)).status).toBe("completed");

    expect(discord.posted.map((m) => m.id)).toEqual([
      live?.reference && (live.reference as { id: string }).id,
    ]);
    expect(discord.deleted).toHaveLength(1);
    const after = (await ledgerOf(tweetId, "copies")).filter((e) => e.pluginName === "@curate/discord");
    expect(after.map((e) => [e.id, e.status, e.supersededBy])).toEqual(
      expect.arrayContaining([
        [live?.id, "published", null],
        [older?.id, "retracted", null],
      ]),
    );
    const [link] = await server.db
      .select({ status: submissionFeeds.status })
      .from(submissionFeeds)
      .where(and(eq(submissionFeeds.submissionId, tweetId), eq(submissionFeeds.feedId, "copies")));
    expect(link.status).toBe("approved");
    expect((await post(`/api/publications/${older?.id}/retract`, owner)).status).toBe(409);
  });

  it("treats duplicates the ledger already held as older copies of the newest", async () => {
    const { tweetId, job } = await approve("copies", "Offshore wind auction");
    const [entry] = await server.db
      .select()
      .from(publications)
      .where(and(eq(publications.submissionId, tweetId), eq(publications.pluginName, "@curate/telegram")));
    // A duplicate as the code before this issue left them: a second message of the branch, and a second live
    // ledger entry for it, published later.
    const answer = await fetch(`${telegram.apiRoot}/bot${TOKEN}/sendMessage`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ chat_id: "@curate_news", text: "Offshore wind auction" }),
    });
    const { result } = (await answer.json()) as { result: { message_id: number; chat: { id: number } } };
    const id = `${result.chat.id}/${result.message_id}`;
    await server.db.insert(publications).values({
      ...entry,
      id: "legacy-duplicate",
      stepId: "legacy-duplicate-step",
      referenceId: id,
      receipt: {
        messageId: result.message_id,
        chatId: result.chat.id,
        reference: { kind: "telegram-message", id },
      },
      publishedAt: new Date(entry.publishedAt.getTime() + 1000),
    });
    const ledger = (await ledgerOf(tweetId, "copies")).filter((e) => e.pluginName === "@curate/telegram");
    expect(ledger.find((e) => e.id === entry.id)?.supersededBy).toBe("legacy-duplicate");
    expect(ledger.find((e) => e.id === "legacy-duplicate")?.supersededBy).toBeNull();

    // The newest copy is the live one: a re-run edits it and leaves the older as it is.
    await rerun(`/api/processing/jobs/${job.id}/reprocess`);
    expect(telegram.sent).toHaveLength(2);
    expect(editedMessages()).toEqual([result.message_id]);
  });
});

describe("the failed-jobs badge", () => {
  it("counts posts whose latest job still has a failed branch nothing published since", async () => {
    const summary = async () => (await get("/api/processing/feeds/badges/summary")).body.data.failedLast24h;
    expect(await summary()).toBe(0);
    // Telegram failed and nothing published it since: counted.
    telegram.failNext(400, "Bad Request: chat not found");
    const stuck = await approve("badges", "Battery storage doubles");
    // Two branches failed in one job: one post, counted once.
    telegram.failNext(400, "Bad Request: chat not found");
    discord.answerNext({ status: 400, body: { code: 50035, message: "Invalid Form Body" } });
    const twice = await approve("badges", "Heat pumps outsell boilers");
    // Failed, then published by Retry Failed: not counted.
    discord.answerNext({ status: 400, body: { code: 50035, message: "Invalid Form Body" } });
    const repaired = await approve("badges", "Solar on every roof");
    await rerun(`/api/processing/jobs/${repaired.job.id}/retry`);
    // A failed edit of a message that is live: nothing is unpublished, so not counted.
    const edited = await approve("badges", "Grid upgrades approved");
    telegram.failNext(400, "Bad Request: message to edit not found");
    expect((await rerun(`/api/processing/jobs/${edited.job.id}/reprocess`)).status).toBe(
      "completed_with_errors",
    );

    expect(await summary()).toBe(2);
    const listed = await get("/api/processing/feeds/badges/submissions?failures=recent");
    expect(listed.body.data.items.map((row: { submissionId: string }) => row.submissionId).sort()).toEqual(
      [stuck.tweetId, twice.tweetId].sort(),
    );
    expect(listed.body.data.pagination.totalCount).toBe(2);
  });
});
