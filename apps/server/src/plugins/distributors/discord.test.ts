import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../../../test/fakes/discord.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED } from "../types.ts";
import { createDiscordDistributor, DISCORD_LIMITS, type DiscordMessage } from "./discord.ts";

const WEBHOOK = { id: "1200000000000000001", token: "wh-token_ABC-123", channelId: "1100000000000000222" };
const BOT_TOKEN = "MTAx.bot-token.for-the-fake";
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let plugin: ReturnType<typeof createDiscordDistributor>;
let webhookUrl: string;

const viaWebhook = (config: Record<string, unknown> = {}, url = webhookUrl) =>
  stepConfig(
    plugin,
    { webhookUrl: "{{DISCORD_WEBHOOK_URL}}", ...config },
    { server: { DISCORD_WEBHOOK_URL: url } },
  );
const viaBot = (config: Record<string, unknown> = {}, token = BOT_TOKEN) =>
  stepConfig(
    plugin,
    { botToken: "{{DISCORD_BOT_TOKEN}}", channelId: "1100000000000000333", ...config },
    { server: { DISCORD_BOT_TOKEN: token } },
  );

const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% this year.",
  url: "https://x.com/amy/status/1900000000000000001",
  username: "amy",
  createdAt: "2026-11-20T10:00:00.000Z",
  tags: ["solar", "energy"],
};

beforeAll(async () => {
  discord = await startFakeDiscord({
    webhooks: [WEBHOOK],
    botToken: BOT_TOKEN,
    channels: ["1100000000000000333"],
    readOnlyChannels: ["1100000000000000444"],
    threads: ["1100000000000000555"],
    guildId: "1000000000000000001",
  });
  plugin = createDiscordDistributor({ apiBaseUrl: discord.apiBaseUrl });
  webhookUrl = `${discord.apiBaseUrl}/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`;
});
afterAll(() => discord.close());
beforeEach(() => discord.reset());

describe("Discord distributor", () => {
  it("posts an embed through the webhook with wait=true and no pings, and links the message", async () => {
    const { rendered, receipt } = await distribute(plugin, item, viaWebhook());
    expect(rendered).toEqual({
      action: "executeWebhook",
      request: {
        target: "webhook",
        webhookId: WEBHOOK.id,
        body: {
          embeds: [
            {
              title: "Solar got cheaper",
              description: "Panels fell 20% this year.",
              url: "https://x.com/amy/status/1900000000000000001",
              timestamp: "2026-11-20T10:00:00.000Z",
              author: { name: "amy" },
              fields: [{ name: "Tags", value: "solar, energy" }],
            },
          ],
          allowed_mentions: { parse: [] },
        },
      },
    });
    const [request] = discord.requests;
    expect(request.path).toBe(`/api/v10/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`);
    expect(request.query.get("wait")).toBe("true");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual((rendered.request as { body: unknown }).body);
    expect(receipt).toEqual({
      messageId: discord.posted[0].id,
      channelId: WEBHOOK.channelId,
      reference: {
        kind: "discord-message",
        id: discord.posted[0].id,
        url: `https://discord.com/channels/1000000000000000001/${WEBHOOK.channelId}/${discord.posted[0].id}`,
      },
    });
  });

  it("names the webhook's author and avatar and posts into a thread", async () => {
    const { rendered } = await distribute(
      plugin,
      "Plain text from a template",
      viaWebhook({
        username: "Curate Solar",
        avatarUrl: "https://curate.example/logo.png",
        threadId: "1100000000000000555",
      }),
    );
    expect(rendered.request).toMatchObject({
      threadId: "1100000000000000555",
      body: {
        content: "Plain text from a template",
        username: "Curate Solar",
        avatar_url: "https://curate.example/logo.png",
      },
    });
    expect(discord.requests[0].query.get("thread_id")).toBe("1100000000000000555");
    expect(discord.posted[0].threadId).toBe("1100000000000000555");
  });

  it("posts as a bot with the publication's key as an enforced nonce, so a retry keeps one message", async () => {
    const context = distributionContext({ idempotencyKey: "c".repeat(64) });
    const first = await distribute(plugin, item, viaBot({ guildId: "1000000000000000009" }), context);
    expect(first.rendered).toMatchObject({
      action: "createMessage",
      request: {
        target: "channel",
        channelId: "1100000000000000333",
        body: { nonce: "c".repeat(25), enforce_nonce: true, allowed_mentions: { parse: [] } },
      },
    });
    expect(discord.requests[0].headers.authorization).toBe(`Bot ${BOT_TOKEN}`);
    const again = await distribute(plugin, item, viaBot(), context);
    expect(discord.posted).toHaveLength(1);
    expect(again.receipt.reference?.id).toBe(first.receipt.reference?.id);
  });

  it("escapes markdown and mention syntax in a hostile item; nothing pings", async () => {
    const hostile = {
      title: "**Breaking** <script>alert(1)</script>",
      content:
        "@everyone <@123456789> [free](https://evil.example) ||spoiler|| `code` > quote ]]> \u202Eevil 👩‍👩‍👧",
    };
    const { rendered } = await distribute(plugin, hostile, viaWebhook());
    const [embed] = (rendered.request as { body: { embeds: Array<{ title: string; description: string }> } })
      .body.embeds;
    expect(embed.title).toBe("\\*\\*Breaking\\*\\* \\<script\\>alert\\(1\\)\\</script\\>");
    expect(embed.description).toBe(
      "@everyone \\<@123456789\\> \\[free\\]\\(https://evil.example\\) \\|\\|spoiler\\|\\| \\`code\\` \\> quote \\]\\]\\> evil 👩‍👩‍👧",
    );
    expect(discord.posted[0].body.allowed_mentions).toEqual({ parse: [] });
  });

  it("keeps an over-long item within every embed limit and the 6000-character total", async () => {
    const long = {
      ...item,
      title: "T_".repeat(300),
      content: "Solar *panels* ".repeat(1000),
      fields: Array.from({ length: 30 }, (_, i) => ({ name: `Field ${i}`, value: "v".repeat(2000) })),
    };
    const { rendered } = await distribute(plugin, long, viaWebhook());
    const [embed] = (rendered.request as { body: Required<DiscordMessage> }).body.embeds;
    if (!embed.title || !embed.author || !embed.fields) throw new Error("the embed lost a part");
    expect(embed.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(embed.title.endsWith("…")).toBe(true);
    expect(embed.title).not.toMatch(/[^\\]\\…$/);
    const total =
      embed.title.length +
      (embed.description?.length ?? 0) +
      embed.author.name.length +
      embed.fields.reduce(
        (sum: number, f: { name: string; value: string }) => sum + f.name.length + f.value.length,
        0,
      );
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(embed.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    expect(discord.posted).toHaveLength(1);
  });

  it("cuts a long plain message at 2000 characters and keeps the link", async () => {
    const { rendered } = await distribute(
      plugin,
      { ...item, content: "Wind (and) solar. ".repeat(300) },
      viaWebhook({ embed: false }),
    );
    const content = (rendered.request as { body: { content: string } }).body.content;
    expect(content.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    expect(content.endsWith("…\n\nhttps://x.com/amy/status/1900000000000000001")).toBe(true);
    expect(discord.posted).toHaveLength(1);
  });

  it("sends a webhook's token only to the Discord API it is configured with", async () => {
    const error = await failure(
      distribute(
        plugin,
        item,
        viaWebhook({}, `https://evil.example/api/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`),
      ),
    );
    expect(error).toMatchObject({ code: "DISCORD_WEBHOOK_INVALID", retryable: false });
    expect(error.message).toMatch(/points at evil\.example, not at Discord/);
    expect(discord.requests).toHaveLength(0);
    const real = createDiscordDistributor({ apiBaseUrl: "https://discord.com/api" });
    const config = stepConfig(
      real,
      { webhookUrl: "{{HOOK}}" },
      { server: { HOOK: "https://discordapp.com/api/webhooks/1200000000000000001/abc" } },
    );
    expect((await real.render(item, config, distributionContext())).request).toMatchObject({
      webhookId: "1200000000000000001",
    });
  });
});

describe("Discord errors say what to fix", () => {
  it("a deleted or reset webhook", async () => {
    const wrongToken = await failure(
      distribute(plugin, item, viaWebhook({}, `${discord.apiBaseUrl}/webhooks/${WEBHOOK.id}/old-token`)),
    );
    expect(wrongToken).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(wrongToken.message).toMatch(/webhook was deleted or reset/);
    expect(wrongToken.message).not.toContain("old-token");
    const unknown = await failure(
      distribute(plugin, item, viaWebhook({}, `${discord.apiBaseUrl}/webhooks/1200000000000000999/x`)),
    );
    expect(unknown).toMatchObject({ code: "DISCORD_NOT_FOUND", retryable: false });
    expect(unknown.message).toMatch(/10015: Unknown Webhook.*create one/);
  });

  it("a refused bot token, a channel it may not post in, a channel it cannot see", async () => {
    const token = await failure(distribute(plugin, item, viaBot({}, "wrong")));
    expect(token).toMatchObject({ code: CREDENTIALS_REJECTED, message: expect.stringMatching(/botToken/) });
    const readOnly = await failure(distribute(plugin, item, viaBot({ channelId: "1100000000000000444" })));
    expect(readOnly).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(readOnly.message).toMatch(/50013: Missing Permissions.*Send Messages and Embed Links/);
    const unknown = await failure(distribute(plugin, item, viaBot({ channelId: "1100000000000000999" })));
    expect(unknown).toMatchObject({
      code: "DISCORD_NOT_FOUND",
      message: expect.stringMatching(/check channelId/),
    });
  });

  it("rate limits wait Discord's retry_after; outages are retryable and never show the webhook token", async () => {
    discord.rateLimitNext(1.5);
    expect(await failure(distribute(plugin, item, viaWebhook()))).toMatchObject({
      code: "DISCORD_RATE_LIMITED",
      retryable: true,
      retryAfterMs: 1500,
    });
    discord.answerNext({ status: 502, body: "bad gateway" });
    const outage = await failure(distribute(plugin, item, viaWebhook()));
    expect(outage).toMatchObject({
      code: "DISCORD_UNAVAILABLE",
      retryable: true,
      message: "Discord failed (502).",
    });
    const away = createDiscordDistributor({ apiBaseUrl: "http://127.0.0.1:9/api" });
    const unreachable = await failure(
      distribute(
        away,
        item,
        viaWebhook({}, `http://127.0.0.1:9/api/webhooks/${WEBHOOK.id}/${WEBHOOK.token}`),
      ),
    );
    expect(unreachable).toMatchObject({ code: "DISCORD_UNAVAILABLE", retryable: true });
    expect(unreachable.message).not.toContain(WEBHOOK.token);
  });

  it("a refused body names the fields Discord objects to", async () => {
    discord.answerNext({
      status: 400,
      body: {
        code: 50035,
        message: "Invalid Form Body",
        errors: {
          embeds: {
            0: {
              image: {
                url: { _errors: [{ code: "URL_TYPE_INVALID_URL", message: "Not a well formed URL." }] },
              },
            },
          },
        },
      },
    });
    const error = await failure(distribute(plugin, item, viaWebhook()));
    expect(error).toMatchObject({ code: "DISCORD_REJECTED", retryable: false });
    expect(error.message).toBe(
      "Discord refused the message (50035: Invalid Form Body): embeds.0.image.url: Not a well formed URL.",
    );
  });

  it("refuses an item with nothing to post", async () => {
    expect(await failure(plugin.render({}, viaWebhook(), distributionContext()))).toMatchObject({
      code: "DISCORD_EMPTY_MESSAGE",
    });
  });
});
