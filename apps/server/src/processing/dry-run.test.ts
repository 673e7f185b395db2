import { randomUUID } from "node:crypto";
import { DISTRIBUTORS, type DistributorPluginName } from "@curate/core";
import { parseFeed } from "@rowanmanning/feed-parser";
import { and, eq, sql } from "drizzle-orm";
import Parser from "rss-parser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertFeed, insertSubmission } from "../../test/factories.ts";
import { startFakeOpenAi } from "../../test/fake-openai.ts";
import { startFakeDiscord } from "../../test/fakes/discord.ts";
import { startFakeNotion } from "../../test/fakes/notion.ts";
import { startFakeSupabase } from "../../test/fakes/supabase.ts";
import { startFakeTelegram } from "../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../test/fakes/webhook.ts";
import { startTestServer, type TestServer } from "../../test/harness.ts";
import { nearSecretKey, newKey } from "../../test/near.ts";
import { sessionHeaders, signIn } from "../../test/session.ts";
import { feeds, processingJobs, rssItems, submissionFeeds } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { DRY_RUNS_KEPT } from "./dry-run.ts";

const TOKEN = "123456789:AAH-dry-run-test-token-for-the-fake";
const WEBHOOK = {
  id: "1200000000000000001",
  token: "dry-run-webhook-token",
  channelId: "1200000000000000099",
};
const FEED = "dryruns";
const NOTION_TOKEN = "secret_dry_run_notion";
const NOTION_DATABASE = "b7c1e2f4a9d84c3e8f2a61d0c5e7b913";
const SB_KEY = "eyJhbGciOiJIUzI1NiJ9.service-role.dry-run";
const HOOK_SECRET = "whsec_dry_run";
let server: TestServer;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let ai: Awaited<ReturnType<typeof startFakeOpenAi>>;
let notion: Awaited<ReturnType<typeof startFakeNotion>>;
let supabase: Awaited<ReturnType<typeof startFakeSupabase>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const ownerKey = newKey();
let owner: string;
let outsider: string;

function streamConfig(extraGlobal: Array<Record<string, unknown>> = []) {
  return {
    id: FEED,
    name: "Dry runs",
    description: "A feed whose channels are previewed",
    outputs: {
      stream: {
        enabled: true,
        transform: [
          {
            plugin: "@curate/object-transform",
            config: {
              mappings: { title: "{{content | truncate:60}}", link: "{{url}}", author: "{{username}}" },
            },
          },
          ...extraGlobal,
        ],
        distribute: [
          {
            plugin: "@curate/telegram",
            transform: [
              {
                plugin: "@curate/ai-transform",
                config: { prompt: "Write a one-line teaser", apiKey: "{{AI_KEY}}", outputKey: "text" },
              },
            ],
            config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@curate_news" },
          },
          {
            plugin: "@curate/discord",
            config: { webhookUrl: "{{DISCORD_WEBHOOK}}" },
          },
          { plugin: "@curate/rss", config: {} },
          {
            plugin: "@curate/notion",
            config: {
              token: "{{NOTION_TOKEN}}",
              databaseId: NOTION_DATABASE,
              fields: {
                title: { type: "title", property: "Name" },
                author: { type: "rich_text", property: "By" },
              },
            },
          },
          {
            plugin: "@curate/supabase",
            config: { url: supabase.url, key: "{{SB_KEY}}", table: "posts", columns: { title: "title" } },
          },
          { plugin: "@curate/webhook", config: { url: receiver.url, secret: "{{HOOK_SECRET}}" } },
        ],
      },
    },
  };
}

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TOKEN, chats: ["@curate_news"] });
  discord = await startFakeDiscord({ webhooks: [WEBHOOK], guildId: "1200000000000000050" });
  ai = await startFakeOpenAi();
  notion = await startFakeNotion({
    token: NOTION_TOKEN,
    databases: [{ id: NOTION_DATABASE, properties: { Name: "title", By: "rich_text" } }],
  });
  supabase = await startFakeSupabase({
    serviceKey: SB_KEY,
    tables: [{ name: "posts", columns: ["id", "title"] }],
  });
  receiver = await startWebhookReceiver(HOOK_SECRET);
  server = await startTestServer(
    {
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      WRITE_RATE_LIMIT_PER_MINUTE: "1000",
      DRY_RUNS_PER_ACCOUNT_PER_HOUR: "40",
      TELEGRAM_API_BASE_URL: telegram.apiRoot,
      DISCORD_API_BASE_URL: discord.apiBaseUrl,
      AI_API_BASE_URL: ai.baseUrl,
      NOTION_API_BASE_URL: notion.baseUrl,
      NOTION_TOKEN,
      TELEGRAM_BOT_TOKEN: TOKEN,
      AI_KEY: "sk-dry-run",
      DISCORD_WEBHOOK: `${discord.apiBaseUrl}/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
      PLUGIN_SECRETS: "TELEGRAM_BOT_TOKEN,AI_KEY,DISCORD_WEBHOOK,NOTION_TOKEN",
      PRIVATE_HOSTS_ALLOWED: "127.0.0.1",
    },
    { worker: { feedSecrets: async () => ({ SB_KEY, HOOK_SECRET, NEAR_KEY: nearSecretKey(newKey()) }) } },
  );
  owner = (await signIn(server, ownerKey)).cookie;
  outsider = (await signIn(server)).cookie;
  await insertFeed(server.db, { id: FEED, createdBy: ownerKey.implicitAccountId, config: streamConfig() });
});

afterAll(async () => {
  await server.close();
  await telegram.close();
  await discord.close();
  await ai.close();
  await notion.close();
  await supabase.close();
  await receiver.close();
});

beforeEach(() => {
  telegram.reset();
  discord.reset();
  ai.requests.length = 0;
  notion.reset();
  supabase.reset();
  receiver.reset();
});

const post = (path: string, cookie: string, body?: unknown) =>
  server.json(path, {
    method: "POST",
    headers: sessionHeaders(server, cookie),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function finished(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await server.db.select().from(processingJobs).where(eq(processingJobs.id, jobId));
    if (job && ["completed", "failed", "completed_with_errors"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const rssCount = async () => {
  const [row] = await server.db
    .select({ n: sql<number>`count(*)::int` })
    .from(rssItems)
    .where(eq(rssItems.feedId, FEED));
  return row.n;
};

/** Every fake channel: no request reached it. */
function expectNothingSent() {
  expect(telegram.requests).toHaveLength(0);
  expect(discord.requests).toHaveLength(0);
  expect(notion.requests).toHaveLength(0);
  expect(supabase.requests).toHaveLength(0);
  expect(receiver.requests).toHaveLength(0);
}

describe("previewing a pending post's channels", () => {
  it("renders what each channel would publish, AI marked, and sends nothing anywhere", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Solar panels got 20% cheaper <again> this year",
      username: "amy",
      feeds: [{ feedId: FEED }],
    });
    ai.reply("Solar keeps getting cheaper ☀️");
    const rssBefore = await rssCount();
    const { status, body } = await post("/api/processing/preview", owner, {
      submissionId: tweetId,
      feedId: FEED,
    });
    expect(status).toBe(200);
    const { job, channels } = body.data;
    expect(job).toMatchObject({ kind: "dry_run", status: "completed", submissionId: tweetId, feedId: FEED });
    expect(channels).toHaveLength(6);
    const [tg, dc, rss, page, row, hook] = channels;
    expect(tg).toMatchObject({
      pluginName: "@curate/telegram",
      status: "rendered",
      action: "sendMessage",
      ai: true,
      request: { chat_id: "@curate_news", text: "Solar keeps getting cheaper ☀️", parse_mode: "HTML" },
      error: null,
    });
    expect(dc).toMatchObject({
      pluginName: "@curate/discord",
      status: "rendered",
      action: "executeWebhook",
      ai: false,
      request: { target: "webhook", webhookId: WEBHOOK.id, body: { embeds: [{ url: expect.any(String) }] } },
    });
    // The webhook's token is a credential: the rendered request never holds it.
    expect(JSON.stringify(dc.request)).not.toContain(WEBHOOK.token);
    expect(rss).toMatchObject({ pluginName: "@curate/rss", status: "rendered", action: "addItem" });
    expect(rss.request.title).toContain("Solar panels got 20% cheaper");
    expect(page).toMatchObject({
      status: "rendered",
      action: "pages.create",
      request: { properties: { By: { rich_text: [{ text: { content: "amy" } }] } } },
    });
    expect(row).toMatchObject({ status: "rendered", action: "insert", request: { table: "posts" } });
    expect(hook).toMatchObject({ status: "rendered", action: "POST" });
    // Credentials stay out of every rendered request.
    for (const secret of [TOKEN, NOTION_TOKEN, SB_KEY, HOOK_SECRET]) {
      expect(JSON.stringify(channels)).not.toContain(secret);
    }
    // The AI transform ran for real (it counts against the feed's AI budget); no channel was sent anything.
    expect(ai.requests).toHaveLength(1);
    expectNothingSent();
    expect(await rssCount()).toBe(rssBefore);
    // The post is still pending; the job is stored and labelled, but never shown as the post's processing.
    const [link] = await server.db
      .select({ status: submissionFeeds.status })
      .from(submissionFeeds)
      .where(and(eq(submissionFeeds.submissionId, tweetId), eq(submissionFeeds.feedId, FEED)));
    expect(link.status).toBe("pending");
    const jobs = await server.json(`/api/processing/jobs/${tweetId}?feedId=${FEED}`, {
      headers: sessionHeaders(server, owner),
    });
    expect(jobs.body.data.jobs.map((j: { kind: string }) => j.kind)).toEqual(["dry_run"]);
  });

  it("shows the RSS item as feed readers will list it, by the function that writes the feed", async () => {
    const feedId = "dryrunrss";
    const config = streamConfig();
    config.id = feedId;
    // Its own feed, publishing to RSS only: the other channels' ledgers stay as the tests below expect them.
    config.outputs.stream.distribute = config.outputs.stream.distribute.filter(
      (d) => d.plugin === "@curate/rss",
    );
    await insertFeed(server.db, { id: feedId, createdBy: ownerKey.implicitAccountId, config });
    const content = 'Q&A: is <script>alert("x")</script> Vec<T> safe?';
    const { tweetId } = await insertSubmission(server.db, { content, username: "amy", feeds: [{ feedId }] });
    const preview = await post("/api/processing/preview", owner, { submissionId: tweetId, feedId });
    const [channel] = preview.body.data.channels;
    const shown = channel.shown;
    // The markup in the post is text, kept as written.
    expect(shown).toMatchObject({ title: content, author: "amy", summary: content });

    const approved = await post("/api/moderate", owner, { submissionId: tweetId, feedId, action: "approve" });
    expect((await finished(approved.body.data.processingJobId)).status).toBe("completed");

    // The published item, as two feed readers read it, is the preview.
    const text = await (await server.request(`/rss/${feedId}/rss.xml`)).text();
    const read = (await new Parser().parseString(text)).items.find((entry) => entry.guid === shown.guid);
    expect({
      title: read?.title,
      link: read?.link,
      author: read?.creator,
      summary: read?.contentSnippet,
      categories: read?.categories ?? [],
      published: read?.isoDate,
    }).toEqual({
      title: shown.title,
      link: shown.link,
      author: shown.author,
      summary: shown.summary,
      categories: shown.categories,
      published: shown.published,
    });
    const atom = await (await server.request(`/rss/${feedId}/atom.xml`)).text();
    const entry = parseFeed(atom).items.find((item) => item.id === shown.id);
    expect(entry).toMatchObject({ title: shown.title, description: shown.summary, url: shown.link });
    expect(entry?.authors.map((author) => author.name)).toEqual([shown.author]);
    const json = await server.json(`/rss/${feedId}/feed.json`);
    expect(json.body.items.find((item: { id: string }) => item.id === shown.id)).toMatchObject({
      title: shown.title,
      summary: shown.summary,
      date_published: shown.published,
      authors: [{ name: shown.author }],
    });
  });

  it("shows a failing step's error on the channels it stops, and answers 403 to non-moderators", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Another post",
      feeds: [{ feedId: FEED }],
    });
    ai.fail(400);
    const { body } = await post("/api/processing/preview", owner, { submissionId: tweetId, feedId: FEED });
    const [tg, dc] = body.data.channels;
    expect(tg).toMatchObject({ status: "failed", failedStep: "Telegram · AI transform", request: null });
    expect(tg.error.message).toBeTruthy();
    expect(dc.status).toBe("rendered");
    expectNothingSent();
    const refused = await post("/api/processing/preview", outsider, { submissionId: tweetId, feedId: FEED });
    expect(refused.status).toBe(403);
    const unknown = await post("/api/processing/preview", owner, { submissionId: "404", feedId: FEED });
    expect(unknown.status).toBe(404);
    const bad = await post("/api/processing/preview", owner, { feedId: FEED });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });
});

/**
 * A channel of every built-in distributor, keyed by the descriptor table's names: a new distributor does not compile
 * until a preview renders it here too.
 */
function everyChannel(): { [Name in DistributorPluginName]: Record<string, unknown> } {
  return {
    rss: {},
    telegram: { botToken: "{{TELEGRAM_BOT_TOKEN}}", chatId: "@curate_news" },
    discord: { webhookUrl: "{{DISCORD_WEBHOOK}}" },
    notion: {
      token: "{{NOTION_TOKEN}}",
      databaseId: NOTION_DATABASE,
      fields: { content: { type: "title", property: "Name" } },
    },
    supabase: { url: supabase.url, key: "{{SB_KEY}}", table: "posts", columns: { title: "content" } },
    "near-social": { accountId: "curate.near", privateKey: "{{NEAR_KEY}}" },
    crosspost: {
      signerId: "curate.near",
      keyPair: "{{NEAR_KEY}}",
      targets: [{ platform: "twitter", userId: "1500000000000000001" }],
    },
    webhook: { url: receiver.url, secret: "{{HOOK_SECRET}}" },
    email: {},
    activitypub: {},
  };
}

describe("previewing every kind of channel", () => {
  it("renders each built-in distributor's request, from the descriptor table, and sends nothing anywhere", async () => {
    const feedId = "dryrunall";
    const moderatorKey = newKey();
    const moderator = (await signIn(server, moderatorKey)).cookie;
    const channels = Object.entries(everyChannel()).map(([name, config]) => ({
      plugin: `@curate/${name}`,
      config,
    }));
    await insertFeed(server.db, {
      id: feedId,
      createdBy: moderatorKey.implicitAccountId,
      config: {
        id: feedId,
        name: "Every channel",
        outputs: { stream: { enabled: true, distribute: channels } },
      },
    });
    const { tweetId } = await insertSubmission(server.db, {
      content: "One post, previewed on every channel",
      feeds: [{ feedId }],
    });
    const rssBefore = await rssCount();
    const preview = await post("/api/processing/preview", moderator, { submissionId: tweetId, feedId });
    expect(preview.status).toBe(200);
    expect(
      preview.body.data.channels.map((channel: { pluginName: string; status: string; error: unknown }) => [
        channel.pluginName,
        channel.status,
        channel.error,
      ]),
    ).toEqual(Object.keys(DISTRIBUTORS).map((name) => [`@curate/${name}`, "rendered", null]));
    expect(preview.body.data.job).toMatchObject({ kind: "dry_run", status: "completed" });
    expectNothingSent();
    expect(await rssCount()).toBe(rssBefore);
  });
});

describe("a dry run is never counted as published", () => {
  it("leaves the processing tab, its failure badge and the RSS feed as they were", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Approved earlier",
      feeds: [{ feedId: FEED, status: "approved" }],
    });
    ai.fail(400);
    const before = await server.json(`/api/processing/feeds/${FEED}/summary`, {
      headers: sessionHeaders(server, owner),
    });
    const { body } = await post("/api/processing/preview", owner, { submissionId: tweetId, feedId: FEED });
    expect(body.data.job.status).toBe("completed_with_errors");
    const after = await server.json(`/api/processing/feeds/${FEED}/summary`, {
      headers: sessionHeaders(server, owner),
    });
    expect(after.body.data.failedLast24h).toBe(before.body.data.failedLast24h);
    const rows = await server.json(`/api/processing/feeds/${FEED}/submissions`, {
      headers: sessionHeaders(server, owner),
    });
    const row = rows.body.data.items.find((item: { submissionId: string }) => item.submissionId === tweetId);
    expect(row.latestJob).toBeNull();
    // A dry run cannot be published as such (its plan may be a config never saved).
    const retried = await post(`/api/processing/jobs/${body.data.job.id}/retry`, owner);
    expect(retried.status).toBe(409);
    expectNothingSent();
  });
});

describe("a submission's jobs list keeps dry runs apart", () => {
  it("lists the jobs that ran, or the dry runs, on request, and every job without the filter", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Approved and previewed twice",
      feeds: [{ feedId: FEED, status: "approved" }],
    });
    // A finished approval job, as the worker leaves one (already relayed, so the outbox leaves it alone).
    const approvalId = randomUUID();
    await server.db.insert(processingJobs).values({
      id: approvalId,
      kind: "approval",
      submissionId: tweetId,
      feedId: FEED,
      status: "completed",
      idempotencyKey: `approval:${approvalId}`,
      queuedAt: new Date(),
      startedAt: new Date(Date.now() - 60_000),
      completedAt: new Date(Date.now() - 59_000),
    });
    const dryRunIds: string[] = [];
    for (let run = 0; run < 2; run++) {
      const { body } = await post("/api/processing/preview", owner, { submissionId: tweetId, feedId: FEED });
      dryRunIds.push(body.data.job.id);
    }
    const list = async (query: string) => {
      const answer = await server.json(`/api/processing/jobs/${tweetId}?feedId=${FEED}${query}`, {
        headers: sessionHeaders(server, owner),
      });
      expect(answer.status).toBe(200);
      return answer.body.data.jobs.map((job: { id: string }) => job.id);
    };

    expect(await list("&dryRuns=exclude")).toEqual([approvalId]);
    expect(new Set(await list("&dryRuns=only"))).toEqual(new Set(dryRunIds));
    expect(new Set(await list(""))).toEqual(new Set([approvalId, ...dryRunIds]));
    const bad = await server.json(`/api/processing/jobs/${tweetId}?feedId=${FEED}&dryRuns=all`, {
      headers: sessionHeaders(server, owner),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    expectNothingSent();
  });
});

describe("testing an unsaved config on the feed's latest approved posts", () => {
  it("shows each post's channels with the transform's error, and saves nothing", async () => {
    for (const content of ["First approved", "Second approved", "Third approved"]) {
      await insertSubmission(server.db, { content, feeds: [{ feedId: FEED, status: "approved" }] });
    }
    const [saved] = await server.db.select().from(feeds).where(eq(feeds.id, FEED));
    // The edit adds a global AI step that must answer JSON; the AI service answers prose.
    const working = streamConfig([
      {
        plugin: "@curate/ai-transform",
        config: { prompt: "Extract the facts", apiKey: "{{AI_KEY}}", outputFormat: "json" },
      },
    ]);
    ai.reply("Sure! Here are the facts you asked for.");
    ai.reply("Sure! Here are the facts you asked for.");
    const { status, body } = await post(`/api/feeds/${FEED}/config/test`, owner, {
      config: working,
      count: 2,
    });
    expect(status).toBe(200);
    expect(body.data.note).toBeNull();
    expect(body.data.runs).toHaveLength(2);
    expect(body.data.runs[0].content).toBe("Third approved");
    for (const run of body.data.runs) {
      expect(run.result.job.kind).toBe("dry_run");
      expect(run.result.channels).toHaveLength(6);
      for (const channel of run.result.channels) {
        expect(channel).toMatchObject({ status: "failed", failedStep: "AI transform", request: null });
        expect(channel.error.message).toMatch(/JSON/i);
      }
    }
    expectNothingSent();
    expect(ai.requests).toHaveLength(2);
    const [after] = await server.db.select().from(feeds).where(eq(feeds.id, FEED));
    expect(after.config).toEqual(saved.config);
    expect(after.updatedAt).toEqual(saved.updatedAt);
  });

  it("runs a working config to rendered requests, and answers an invalid one with its field errors", async () => {
    ai.reply("Teaser one");
    const ok = await post(`/api/feeds/${FEED}/config/test`, owner, { config: streamConfig(), count: 1 });
    expect(ok.body.data.runs[0].result.channels.map((c: { status: string }) => c.status)).toEqual(
      Array(6).fill("rendered"),
    );
    const invalid = await post(`/api/feeds/${FEED}/config/test`, owner, {
      config: { ...streamConfig(), name: "" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "config.name" })]),
    );
    const tooMany = await post(`/api/feeds/${FEED}/config/test`, owner, {
      config: streamConfig(),
      count: 21,
    });
    expect(tooMany.status).toBe(400);
    const forbidden = await post(`/api/feeds/${FEED}/config/test`, outsider, { config: streamConfig() });
    expect(forbidden.status).toBe(403);
    expectNothingSent();
  });
});

describe("replay with a diff", () => {
  it("previews a tweak, then publishing it edits the earlier Telegram and Discord messages", async () => {
    const { tweetId } = await insertSubmission(server.db, {
      content: "Wind power record in the North Sea",
      username: "bo",
      feeds: [{ feedId: FEED }],
    });
    ai.reply("Wind broke a record");
    const approved = await post("/api/moderate", owner, {
      submissionId: tweetId,
      feedId: FEED,
      action: "approve",
    });
    const original = await finished(approved.body.data.processingJobId);
    expect(original.status).toBe("completed");
    expect(telegram.sent).toHaveLength(1);
    expect(discord.posted).toHaveLength(1);
    const tgMessage = `${telegram.sent.length && (await telegramMessageKey())}`;
    for (const fake of [telegram, discord, notion, supabase, receiver]) fake.requests.length = 0;

    const steps = await server.json(`/api/processing/jobs/${original.id}/steps`, {
      headers: sessionHeaders(server, owner),
    });
    const mapping = steps.body.data.steps.find(
      (s: { pluginName: string }) => s.pluginName === "@curate/object-transform",
    );
    const tweaked = JSON.stringify({ ...mapping.input, content: "Wind power record, corrected figures" });

    // The dry run: nothing sent, each channel says which publication it would edit.
    ai.reply("Wind broke a record (corrected)");
    const dry = await post(`/api/processing/steps/${mapping.id}/tweak/dry-run`, owner, { newInput: tweaked });
    expect(dry.status).toBe(200);
    expect(dry.body.data.job).toMatchObject({ kind: "dry_run", retryOfJobId: original.id });
    const [tg, dc] = dry.body.data.channels;
    expect(tg).toMatchObject({
      action: "editMessageText",
      request: { message_id: expect.any(Number), text: "Wind broke a record (corrected)" },
      replaces: { jobId: original.id, reference: { kind: "telegram-message" } },
    });
    expect(dc).toMatchObject({
      action: "editWebhookMessage",
      request: { editMessageId: discord.posted[0].id },
      replaces: { jobId: original.id },
    });
    const dryMapping = dry.body.data.steps.find(
      (s: { pluginName: string }) => s.pluginName === "@curate/object-transform",
    );
    expect(dryMapping.output.title).toBe("Wind power record, corrected figures");
    expect(mapping.output.title).toBe("Wind power record in the North Sea");
    expectNothingSent();

    const rssBefore = await rssCount();
    // Publish this: the same tweak for real edits both messages instead of posting new ones.
    ai.reply("Wind broke a record (corrected)");
    const published = await post(`/api/processing/steps/${mapping.id}/tweak`, owner, { newInput: tweaked });
    expect(published.status).toBe(201);
    expect(published.body.data.job).toMatchObject({ kind: "tweak", retryOfJobId: original.id });
    expect((await finished(published.body.data.job.id)).status).toBe("completed");
    expect(telegram.sent).toHaveLength(1);
    expect(telegram.edited).toHaveLength(1);
    expect(telegram.requests.map((r) => r.path)).toEqual([`/bot${TOKEN}/editMessageText`]);
    expect(telegram.messageText(tgMessage)).toBe("Wind broke a record (corrected)");
    expect(discord.posted).toHaveLength(1);
    expect(discord.edits).toHaveLength(1);
    expect(discord.requests[0]).toMatchObject({
      method: "PATCH",
      path: `/api/v10/webhooks/${WEBHOOK.id}/${WEBHOOK.token}/messages/${discord.posted[0].id}`,
    });
    expect(discord.message(discord.posted[0].id).embeds[0].title).toBe(
      "Wind power record, corrected figures",
    );
    // Notion's page is updated and Supabase's row replaced; the webhook gets the same delivery as an update.
    expect(notion.pages).toHaveLength(1);
    expect(notion.updates).toHaveLength(1);
    expect(notion.pages[0].properties.Name.title[0].text.content).toBe(
      "Wind power record, corrected figures",
    );
    expect(supabase.rows("posts")).toEqual([
      expect.objectContaining({ title: "Wind power record, corrected figures" }),
    ]);
    expect(supabase.merged).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.updates).toHaveLength(1);
    expect(receiver.items.size).toBe(1);
    // The feed's own RSS item is replaced, not added again.
    expect(await rssCount()).toBe(rssBefore);
    const titles = await server.db
      .select({ title: rssItems.title })
      .from(rssItems)
      .where(eq(rssItems.feedId, FEED));
    expect(titles.map((t) => t.title)).toContain("Wind power record, corrected figures");
    expect(titles.map((t) => t.title)).not.toContain("Wind power record in the North Sea");
    // The edit's request is exactly the one the dry run showed.
    expect(discord.requests[0].body).toEqual(dc.request.body);
    expect(telegram.requests[0].body).toEqual(tg.request);
    // The ledger still holds one entry for each edited message, page, row, item and delivery, now the tweak's.
    const ledger = await queryRows<{ plugin: string; jobs: string[] }>(
      server.db,
      sql`select plugin_name as plugin, array_agg(job_id order by published_at) as jobs from publications
        where feed_id = ${FEED} group by plugin_name order by plugin_name`,
    );
    const tweakJob = published.body.data.job.id;
    expect(Object.fromEntries(ledger.map((row) => [row.plugin, row.jobs]))).toEqual({
      "@curate/discord": [tweakJob],
      "@curate/notion": [tweakJob],
      "@curate/rss": [tweakJob],
      "@curate/supabase": [tweakJob],
      "@curate/telegram": [tweakJob],
      "@curate/webhook": [tweakJob],
    });
  });

  it("runs Reprocess and Retry Step dry as well, and stops each account at its hourly budget", async () => {
    // An approval that ran its steps (other tests in this file leave approvals that had nothing to run).
    const [job] = await server.db
      .select()
      .from(processingJobs)
      .where(
        and(
          eq(processingJobs.feedId, FEED),
          eq(processingJobs.kind, "approval"),
          sql`exists (select 1 from processing_steps s where s.job_id = ${processingJobs.id})`,
        ),
      )
      .orderBy(processingJobs.createdAt)
      .limit(1);
    expect(job, "an approval job with steps").toBeDefined();
    const reprocess = await post(`/api/processing/jobs/${job.id}/reprocess/dry-run`, owner);
    expect(reprocess.status).toBe(200);
    expect(reprocess.body.data.job).toMatchObject({ kind: "dry_run", note: "Dry run of a reprocess." });
    const steps = await server.json(`/api/processing/jobs/${job.id}/steps`, {
      headers: sessionHeaders(server, owner),
    });
    const retry = await post(`/api/processing/steps/${steps.body.data.steps[0].id}/retry/dry-run`, owner);
    expect(retry.status).toBe(200);
    expectNothingSent();
    let answer = retry;
    for (let i = 0; i < 40 && answer.status === 200; i++) {
      answer = await post(`/api/processing/steps/${steps.body.data.steps[0].id}/retry/dry-run`, owner);
    }
    expect(answer.status).toBe(429);
    expect(answer.body.error.code).toBe("RATE_LIMITED");
    // Dry runs are previews, not history: a submission keeps its latest few.
    const kept = await server.db
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(
        and(eq(processingJobs.submissionId, job.submissionId as string), eq(processingJobs.kind, "dry_run")),
      );
    expect(kept).toHaveLength(DRY_RUNS_KEPT);
  });
});

/** The `{chat.id}/{message_id}` of the one message the fake Telegram holds (from the step's receipt). */
async function telegramMessageKey(): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    server.db,
    sql`select output -> 'reference' ->> 'id' as id from processing_steps
      where plugin_name = '@curate/telegram' and status = 'success' and output ->> 'dryRun' is null
      order by created_at desc limit 1`,
  );
  return row.id;
}
