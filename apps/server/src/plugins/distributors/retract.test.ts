import { DISTRIBUTOR_ENTRIES, type DistributorPluginName, EMAIL_TEXTS } from "@curate/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../../../test/fakes/discord.ts";
import { startFakeNotion } from "../../../test/fakes/notion.ts";
import { startFakeSupabase } from "../../../test/fakes/supabase.ts";
import { startFakeTelegram } from "../../../test/fakes/telegram.ts";
import { startWebhookReceiver } from "../../../test/fakes/webhook.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import type { RetractionOutcome } from "../types.ts";
import { createCrosspostDistributor } from "./crosspost.ts";
import { createDiscordDistributor } from "./discord.ts";
import { createEmailDistributor } from "./email.ts";
import { createNearSocialDistributor } from "./near-social.ts";
import { createNotionDistributor } from "./notion.ts";
import { createRssDistributor } from "./rss.ts";
import { createSupabaseDistributor } from "./supabase.ts";
import { createTelegramDistributor } from "./telegram.ts";
import { createWebhookDistributor } from "./webhook.ts";

const TELEGRAM_TOKEN = "123456789:AAH-retract-test-token";
const BOT_TOKEN = "discord-bot-token-retract";
const CHANNEL = "1100000000000000333";
const NOTION_TOKEN = "ntn_retract_secret";
const DATABASE = "e7c1e2f4a9d84c3e8f2a61d0c5e7b913";
const SERVICE_KEY = "eyJhbGciOiJIUzI1NiJ9.service-role.retract";
const item = { title: "Solar got cheaper", content: "Panels fell 20%.", url: "https://example.com/solar" };

let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let notion: Awaited<ReturnType<typeof startFakeNotion>>;
let supabase: Awaited<ReturnType<typeof startFakeSupabase>>;

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TELEGRAM_TOKEN, chats: ["@retract_news"] });
  discord = await startFakeDiscord({ botToken: BOT_TOKEN, channels: [CHANNEL] });
  notion = await startFakeNotion({
    token: NOTION_TOKEN,
    databases: [{ id: DATABASE, properties: { Name: "title" } }],
  });
  supabase = await startFakeSupabase({
    serviceKey: SERVICE_KEY,
    tables: [{ name: "posts", columns: ["id", "title", "curate_key"], unique: ["curate_key"] }],
  });
});
afterAll(async () => {
  await Promise.all([telegram.close(), discord.close(), notion.close(), supabase.close()]);
});
beforeEach(() => {
  telegram.reset();
  discord.reset();
  notion.reset();
  supabase.reset();
});

/** Where this server's own RSS service is (the RSS case below publishes to another one). */
const DESTINATIONS = { ownRssServiceUrl: "http://127.0.0.1:3000/rss" };

interface CannotRetract {
  /** A config for which the channel's descriptor says a retraction cannot take the publication back. */
  config: Record<string, unknown>;
  retract(): Promise<RetractionOutcome | undefined>;
  /** What its reason names. */
  says: string;
}

/**
 * How each channel that cannot take a publication back says why, for the channels whose descriptor's `retracts`
 * says so (the last test checks the table against this, so a new such channel fails until it has its case).
 */
const CANNOT_RETRACT: Partial<Record<DistributorPluginName, CannotRetract>> = {
  "near-social": {
    config: {},
    retract: () =>
      createNearSocialDistributor({
        rpcUrls: { mainnet: "http://127.0.0.1:9", testnet: "http://127.0.0.1:9" },
      }).retract?.(
        { reference: { kind: "near-transaction", id: "9xHash" } },
        {} as never,
        distributionContext(),
      ) ?? Promise.resolve(undefined),
    says: "on chain (transaction 9xHash)",
  },
  crosspost: {
    config: {},
    retract: () =>
      createCrosspostDistributor({ apiUrl: "http://127.0.0.1:9" }).retract?.(
        {
          posts: [{ platform: "twitter", url: "https://x.com/a/status/1" }],
          reference: { kind: "crosspost", id: "1" },
        },
        {} as never,
        distributionContext(),
      ) ?? Promise.resolve(undefined),
    says: "https://x.com/a/status/1",
  },
  rss: {
    config: { serviceUrl: "https://rss.example.com" },
    retract: () => {
      const rss = createRssDistributor({
        db: {} as never,
        publicUrl: "http://127.0.0.1:3000",
        allowedHosts: [],
      });
      const external = stepConfig(
        rss,
        { serviceUrl: "https://rss.example.com", apiSecret: "{{RSS_SECRET}}" },
        { feed: { RSS_SECRET: "secret" } },
      );
      return (
        rss.retract?.(
          { guid: "g1", reference: { kind: "rss-item", id: "g1" } },
          external,
          distributionContext(),
        ) ?? Promise.resolve(undefined)
      );
    },
    says: "remove the item g1 on that service",
  },
  email: {
    config: {},
    // An issue the receipt does not name is recorded only (what a sent issue's retraction also answers).
    retract: () =>
      createEmailDistributor({
        db: {} as never,
        publicUrl: "http://127.0.0.1:3000",
        mail: { kind: "off" },
      }).retract?.({ reference: { kind: "email-issue" } }, {} as never, distributionContext()) ??
      Promise.resolve(undefined),
    says: EMAIL_TEXTS.retractionRecordedOnly,
  },
};

describe("retract", () => {
  it("Telegram deletes the message once; a message already gone counts as retracted", async () => {
    const plugin = createTelegramDistributor({ apiRoot: telegram.apiRoot });
    const config = stepConfig(
      plugin,
      { botToken: "{{TELEGRAM_TOKEN}}", chatId: "@retract_news" },
      { server: { TELEGRAM_TOKEN } },
    );
    const { receipt } = await distribute(plugin, item, config);
    const [message] = telegram.sent;
    const retract = plugin.retract;
    if (!retract) throw new Error("telegram has no retract");
    expect(await retract(receipt, config, distributionContext())).toMatchObject({ retracted: true });
    expect(telegram.deleted.map((m) => m.messageId)).toEqual([message.messageId]);
    expect(await retract(receipt, config, distributionContext())).toMatchObject({
      retracted: true,
      alreadyGone: true,
    });
    // Telegram refuses deleting an old message in a group: an error that says what to do, not retried.
    const again = await distribute(plugin, item, config);
    telegram.failNext(400, "Bad Request: message can't be deleted for everyone");
    const error = await failure(retract(again.receipt, config, distributionContext()));
    expect(error).toMatchObject({ code: "TELEGRAM_CANNOT_DELETE", retryable: false });
    expect(error.message).toContain("48 hours");
  });

  it("Discord deletes a bot's message in its channel", async () => {
    const plugin = createDiscordDistributor({ apiBaseUrl: discord.apiBaseUrl });
    const config = stepConfig(
      plugin,
      { botToken: "{{DISCORD_BOT}}", channelId: CHANNEL },
      { server: { DISCORD_BOT: BOT_TOKEN } },
    );
    const { receipt } = await distribute(plugin, item, config);
    const [posted] = discord.posted;
    expect(await plugin.retract?.(receipt, config, distributionContext())).toMatchObject({ retracted: true });
    const call = discord.requests.at(-1);
    expect(call).toMatchObject({
      method: "DELETE",
      path: `/api/v10/channels/${CHANNEL}/messages/${posted.id}`,
    });
    expect(call?.headers.authorization).toBe(`Bot ${BOT_TOKEN}`);
    expect(discord.posted).toHaveLength(0);
    expect(await plugin.retract?.(receipt, config, distributionContext())).toMatchObject({
      retracted: true,
      alreadyGone: true,
    });
  });

  it("Notion moves the page to the trash; a page already there counts as retracted", async () => {
    const plugin = createNotionDistributor({ baseUrl: notion.baseUrl });
    const config = stepConfig(
      plugin,
      {
        token: "{{NOTION_TOKEN}}",
        databaseId: DATABASE,
        fields: { title: { type: "title", property: "Name" } },
      },
      { server: { NOTION_TOKEN } },
    );
    const { receipt } = await distribute(plugin, item, config);
    expect(await plugin.retract?.(receipt, config, distributionContext())).toMatchObject({ retracted: true });
    expect(notion.pages[0].inTrash).toBe(true);
    expect(await plugin.retract?.(receipt, config, distributionContext())).toMatchObject({
      retracted: true,
      alreadyGone: true,
    });
  });

  it("Supabase deletes the row by its id", async () => {
    const plugin = createSupabaseDistributor({ allowedHosts: ["127.0.0.1"] });
    const config = stepConfig(
      plugin,
      {
        url: supabase.url,
        key: "{{SUPABASE_KEY}}",
        table: "posts",
        columns: { title: "title" },
        idempotencyColumn: "curate_key",
      },
      { feed: { SUPABASE_KEY: SERVICE_KEY } },
    );
    const { receipt } = await distribute(plugin, item, config);
    expect(supabase.rows("posts")).toHaveLength(1);
    expect(await plugin.retract?.(receipt, config, distributionContext())).toMatchObject({ retracted: true });
    expect(supabase.rows("posts")).toHaveLength(0);
    const call = supabase.requests.at(-1);
    expect(call?.method).toBe("DELETE");
    expect(call?.query.get("id")).toBe(`eq.${(receipt.reference as { id: string }).id}`);
    expect(await plugin.retract?.(receipt, config, distributionContext())).toMatchObject({
      retracted: true,
      alreadyGone: true,
    });
  });

  it("a webhook tells its receiver, in a signed item.retracted delivery, which delivery to take down", async () => {
    const receiver = await startWebhookReceiver("whsec_retract");
    try {
      const plugin = createWebhookDistributor({ allowedHosts: ["127.0.0.1"] });
      const config = stepConfig(
        plugin,
        { url: receiver.url, secret: "{{HOOK_SECRET}}" },
        { feed: { HOOK_SECRET: "whsec_retract" } },
      );
      const { receipt } = await distribute(plugin, item, config);
      const original = (receipt.reference as { id: string }).id;
      expect(await plugin.retract?.(receipt, config, distributionContext())).toEqual({
        retracted: true,
        delivery: `${original}:retracted`,
      });
      expect(receiver.refused).toEqual([]);
      expect(receiver.deliveries.map((d) => [d.id, d.body.event])).toEqual([
        [original, "item.published"],
        [`${original}:retracted`, "item.retracted"],
      ]);
      expect(receiver.deliveries[1].body.data).toEqual({ delivery: original });
    } finally {
      await receiver.close();
    }
  });

  it("says why each channel its descriptor says cannot retract cannot, and every other channel's descriptor says it can", async () => {
    for (const [name, descriptor] of DISTRIBUTOR_ENTRIES) {
      const cannot = CANNOT_RETRACT[name];
      if (!cannot) {
        expect(descriptor.retracts({}, DESTINATIONS), `${name} cannot retract: add its case above`).toBe(
          true,
        );
        continue;
      }
      expect(descriptor.retracts(cannot.config, DESTINATIONS), name).toBe(false);
      expect(await cannot.retract(), name).toEqual({
        retracted: false,
        reason: expect.stringContaining(cannot.says),
      });
    }
  });
});
