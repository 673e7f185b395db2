import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../../../test/fakes/discord.ts";
import { startFakeNotion } from "../../../test/fakes/notion.ts";
import type { ReceivedRequest } from "../../../test/fakes/server.ts";
import { startFakeSupabase } from "../../../test/fakes/supabase.ts";
import { startFakeTelegram } from "../../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../../test/fakes/webhook.ts";
import { stepConfig as checkedConfig, distribute, distributionContext } from "../../../test/plugins.ts";
import type { DistributorPlugin, RenderedDistribution } from "../types.ts";
import { createDiscordDistributor } from "./discord.ts";
import { createNotionDistributor } from "./notion.ts";
import { createSupabaseDistributor } from "./supabase.ts";
import { createTelegramDistributor } from "./telegram.ts";
import { createWebhookDistributor } from "./webhook.ts";

/**
 * Each distributor's render is the exact request its send makes (the fake records the bytes), on a first
 * publication and on a replay, where the channels that can edit a publication edit it instead of posting again.
 */

const TG_TOKEN = "123456789:AAH-replay-test-token-for-the-fake";
const WEBHOOK = {
  id: "1200000000000000001",
  token: "replay-webhook-token",
  channelId: "1200000000000000099",
};
const BOT = "bot-token-for-replays";
const CHANNEL = "1200000000000000077";
const NOTION_TOKEN = "secret_replay_notion_token";
const DATABASE = "b7c1e2f4a9d84c3e8f2a61d0c5e7b913";
const SERVICE_KEY = "eyJhbGciOiJIUzI1NiJ9.service-role.replay";
const HOOK_SECRET = "whsec_replay";

let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let notion: Awaited<ReturnType<typeof startFakeNotion>>;
let supabase: Awaited<ReturnType<typeof startFakeSupabase>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const first = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://x.com/a/status/1",
};
const second = { ...first, title: "Solar got cheaper (corrected)", content: "Panels fell 25% this year." };

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TG_TOKEN, chats: ["@curate_news"] });
  discord = await startFakeDiscord({ webhooks: [WEBHOOK], botToken: BOT, channels: [CHANNEL] });
  notion = await startFakeNotion({
    token: NOTION_TOKEN,
    databases: [{ id: DATABASE, properties: { Name: "title", Summary: "rich_text", Link: "url" } }],
  });
  supabase = await startFakeSupabase({
    serviceKey: SERVICE_KEY,
    tables: [{ name: "posts", columns: ["id", "title", "body", "link"] }],
  });
  receiver = await startWebhookReceiver(HOOK_SECRET);
});

afterAll(async () => {
  await Promise.all([telegram.close(), discord.close(), notion.close(), supabase.close(), receiver.close()]);
});

/** A config as the runner hands it over: checked, its secret fields filled from these variables. */
const stepConfig = <C>(plugin: DistributorPlugin<C>, config: unknown) =>
  checkedConfig(plugin, config, {
    server: {
      TG: TG_TOKEN,
      HOOK_URL: `${discord.apiBaseUrl}/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
      BOT,
      NOTION: NOTION_TOKEN,
    },
    // Secrets sent to a host the feed's config chooses come from the feed's own secrets only.
    feed: { SB: SERVICE_KEY, HOOK: HOOK_SECRET },
  });

/** The request body as the fake received it, parsed: what `render` made must be exactly it. */
const sentBody = (request: ReceivedRequest) => JSON.parse(request.raw);

/** Publishes `first`, then replays `second` with the first receipt; both renders and the fake's requests. */
async function publishThenReplay<C>(plugin: DistributorPlugin<C>, config: C, requests: ReceivedRequest[]) {
  requests.length = 0;
  const original = await distribute(plugin, first, config);
  const replay = await distribute(
    plugin,
    second,
    config,
    distributionContext({
      jobId: "00000000-0000-4000-8000-000000000002",
      idempotencyKey: "b".repeat(64),
      replay: { jobId: "00000000-0000-4000-8000-000000000001", receipt: original.receipt },
    }),
  );
  return { original, replay, requests: [...requests] };
}

describe("a replay edits the earlier publication, sending exactly what it rendered", () => {
  it("Telegram: sendMessage, then editMessageText of that message", async () => {
    const plugin = createTelegramDistributor({ apiRoot: telegram.apiRoot });
    const config = stepConfig(plugin, { botToken: "{{TG}}", chatId: "@curate_news" });
    const { original, replay, requests } = await publishThenReplay(plugin, config, telegram.requests);
    expect(requests.map((r) => r.path)).toEqual([
      `/bot${TG_TOKEN}/sendMessage`,
      `/bot${TG_TOKEN}/editMessageText`,
    ]);
    expect(sentBody(requests[0])).toEqual(original.rendered.request);
    expect(replay.rendered.action).toBe("editMessageText");
    expect(sentBody(requests[1])).toEqual(replay.rendered.request);
    expect(replay.rendered.request).toMatchObject({ message_id: original.receipt.messageId });
    expect(telegram.sent).toHaveLength(1);
    expect(telegram.messageText(String(original.receipt.reference?.id))).toContain("(corrected)");
    expect(replay.receipt).toMatchObject({ edited: true, reference: original.receipt.reference });
  });

  it("Telegram: a replay whose text is unchanged is done (Telegram's 'message is not modified')", async () => {
    const plugin = createTelegramDistributor({ apiRoot: telegram.apiRoot });
    const config = stepConfig(plugin, { botToken: "{{TG}}", chatId: "@curate_news" });
    const original = await distribute(plugin, first, config);
    const again = await distribute(
      plugin,
      first,
      config,
      distributionContext({ replay: { jobId: "j", receipt: original.receipt } }),
    );
    expect(again.receipt.reference).toEqual(original.receipt.reference);
  });

  it("Discord webhook: execute, then edit webhook message (no new message)", async () => {
    const plugin = createDiscordDistributor({ apiBaseUrl: discord.apiBaseUrl });
    const config = stepConfig(plugin, {
      webhookUrl: "{{HOOK_URL}}",
      username: "Curate",
    });
    const { original, replay, requests } = await publishThenReplay(plugin, config, discord.requests);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/v10/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`,
      `PATCH /api/v10/webhooks/${WEBHOOK.id}/${WEBHOOK.token}/messages/${original.receipt.messageId}`,
    ]);
    const renderedBody = (r: RenderedDistribution) => (r.request as { body: unknown }).body;
    expect(sentBody(requests[0])).toEqual(renderedBody(original.rendered));
    expect(sentBody(requests[1])).toEqual(renderedBody(replay.rendered));
    // A webhook's name belongs to creating the message; an edit carries the content only.
    expect(sentBody(requests[1])).not.toHaveProperty("username");
    expect(replay.rendered.action).toBe("editWebhookMessage");
    expect(discord.posted).toHaveLength(1);
    expect(discord.edits).toHaveLength(1);
    expect(discord.message(String(original.receipt.messageId)).embeds[0].title).toBe(
      (replay.rendered.request as { body: { embeds: Array<{ title: string }> } }).body.embeds[0].title,
    );
    expect(discord.message(String(original.receipt.messageId)).embeds[0].title).toContain("corrected");
  });

  it("Discord bot: create message, then edit message", async () => {
    const plugin = createDiscordDistributor({ apiBaseUrl: discord.apiBaseUrl });
    const config = stepConfig(plugin, { botToken: "{{BOT}}", channelId: CHANNEL });
    const { original, replay, requests } = await publishThenReplay(plugin, config, discord.requests);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/v10/channels/${CHANNEL}/messages`,
      `PATCH /api/v10/channels/${CHANNEL}/messages/${original.receipt.messageId}`,
    ]);
    expect(sentBody(requests[1])).toEqual((replay.rendered.request as { body: unknown }).body);
    expect(sentBody(requests[1])).not.toHaveProperty("nonce");
    expect(replay.rendered.action).toBe("editMessage");
  });

  it("Notion: pages.create, then pages.update of that page", async () => {
    const plugin = createNotionDistributor({ baseUrl: notion.baseUrl });
    const config = stepConfig(plugin, {
      token: "{{NOTION}}",
      databaseId: DATABASE,
      fields: {
        title: { type: "title", property: "Name" },
        content: { type: "rich_text", property: "Summary" },
      },
    });
    const { original, replay, requests } = await publishThenReplay(plugin, config, notion.requests);
    // The database's one data source is looked up for the page; a replay edits the page, which needs none.
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      expect.stringMatching(/^GET \/v1\/databases\//),
      "POST /v1/pages",
      `PATCH /v1/pages/${original.receipt.pageId}`,
    ]);
    expect(sentBody(requests[1])).toMatchObject({
      parent: { type: "data_source_id" },
      properties: (original.rendered.request as { properties: unknown }).properties,
    });
    const { page_id: _id, ...update } = replay.rendered.request as { page_id: string };
    expect(sentBody(requests[2])).toEqual(update);
    expect(notion.pages).toHaveLength(1);
    expect(notion.pages[0].properties.Name.title[0].text.content).toBe(second.title);
    expect(replay.receipt).toMatchObject({ updated: true, pageId: original.receipt.pageId });
  });

  it("Supabase: insert, then an upsert that replaces the same row", async () => {
    const plugin = createSupabaseDistributor({ allowedHosts: ["127.0.0.1"] });
    const config = stepConfig(plugin, {
      url: supabase.url,
      key: "{{SB}}",
      table: "posts",
      columns: { title: "title", body: "content", link: "url" },
    });
    const { original, replay, requests } = await publishThenReplay(plugin, config, supabase.requests);
    expect(requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(sentBody(requests[0])).toEqual((original.rendered.request as { row: unknown }).row);
    expect(sentBody(requests[1])).toEqual((replay.rendered.request as { row: unknown }).row);
    expect(requests[1].query.get("on_conflict")).toBe("id");
    expect(String(requests[1].headers.prefer)).toContain("resolution=merge-duplicates");
    expect(supabase.rows("posts")).toEqual([
      expect.objectContaining({ id: Number(original.receipt.reference?.id), title: second.title }),
    ]);
    expect(replay.receipt).toMatchObject({ replaced: true, reference: original.receipt.reference });
  });

  it("a webhook re-run sends the same delivery id as item.updated, exactly the bytes it rendered", async () => {
    const plugin = createWebhookDistributor({ allowedHosts: ["127.0.0.1"] });
    const config = stepConfig(plugin, { url: receiver.url, secret: "{{HOOK}}", event: "post.created" });
    const { original, replay, requests } = await publishThenReplay(plugin, config, receiver.requests);
    expect(requests).toHaveLength(2);
    expect(requests[0].raw).toBe((original.rendered.request as { body: string }).body);
    expect(requests[1].raw).toBe((replay.rendered.request as { body: string }).body);
    expect(replay.rendered).toMatchObject({ action: "POST (update)", edits: true });
    expect(requests.map((r) => [r.headers["x-curate-event"], r.headers["x-curate-delivery"]])).toEqual([
      ["post.created", "a".repeat(64)],
      ["item.updated", "a".repeat(64)],
    ]);
    expect(JSON.parse(requests[1].raw)).toMatchObject({ event: "item.updated", delivery: "a".repeat(64) });
    expect(replay.receipt).toMatchObject({ updated: true, reference: original.receipt.reference });
    expect([...receiver.items.values()]).toEqual([expect.objectContaining({ title: second.title })]);
  });

  it("renders no edit when the receipt does not say which message it was (the runner then sends nothing)", async () => {
    const plugin = createTelegramDistributor({ apiRoot: telegram.apiRoot });
    const config = stepConfig(plugin, { botToken: "{{TG}}", chatId: "@curate_news" });
    const rendered = await plugin.render(
      first,
      config,
      distributionContext({ replay: { jobId: "j", receipt: { reference: { kind: "telegram-message" } } } }),
    );
    expect(rendered).toMatchObject({ action: "sendMessage" });
    expect(rendered.edits).toBeUndefined();
  });
});
