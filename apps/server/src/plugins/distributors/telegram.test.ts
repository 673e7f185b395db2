import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeTelegram } from "../../../test/fakes/telegram.ts";
import { distribute, distributionContext, failure, stepConfig } from "../../../test/plugins.ts";
import { CREDENTIALS_REJECTED } from "../types.ts";
import { createTelegramDistributor, TELEGRAM_TEXT_LIMIT } from "./telegram.ts";

const TOKEN = "123456789:AAH-test-token-for-the-fake-bot-api";
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let plugin: ReturnType<typeof createTelegramDistributor>;

const configOf = (config: Record<string, unknown>) =>
  stepConfig(
    plugin,
    { botToken: "{{TELEGRAM_BOT_TOKEN}}", ...config },
    { server: { TELEGRAM_BOT_TOKEN: TOKEN } },
  );

const item = {
  title: "Solar got cheaper",
  content: "Panels fell 20% & more this year.",
  url: "https://x.com/amy/status/1900000000000000001",
  username: "amy",
};

const hostile = {
  title: "<script>alert(1)</script> **bold** \u202Egnp.exe",
  content:
    "<b>not bold</b> &amp; ]]> [link](https://evil.example) _under_ `code` #tag a-b=c|d{e}f.g!h \\ 👩‍👩‍👧 مرحبا",
  url: "https://x.com/amy/status/1900000000000000002",
};

beforeAll(async () => {
  telegram = await startFakeTelegram({ token: TOKEN, chats: ["@curate_news", "-1001234567890"] });
  plugin = createTelegramDistributor({ apiRoot: telegram.apiRoot });
});
afterAll(() => telegram.close());
beforeEach(() => telegram.reset());

describe("Telegram distributor", () => {
  it("sends the title, content and link as one HTML message and says where it went", async () => {
    const { rendered, receipt } = await distribute(plugin, item, configOf({ chatId: "@curate_news" }));
    expect(rendered).toEqual({
      action: "sendMessage",
      request: {
        chat_id: "@curate_news",
        parse_mode: "HTML",
        text: "<b>Solar got cheaper</b>\n\nPanels fell 20% &amp; more this year.\n\nhttps://x.com/amy/status/1900000000000000001",
      },
    });
    expect(telegram.requests).toHaveLength(1);
    expect(telegram.requests[0].path).toBe(`/bot${TOKEN}/sendMessage`);
    expect(telegram.requests[0].body).toEqual(rendered.request);
    expect(telegram.sent[0].visible).toBe(
      "Solar got cheaper\n\nPanels fell 20% & more this year.\n\nhttps://x.com/amy/status/1900000000000000001",
    );
    expect(receipt).toMatchObject({
      messageId: 100,
      reference: { kind: "telegram-message", url: "https://t.me/curate_news/100" },
    });
  });

  it("reads the demo data's channelId, a topic given as text, and turns link previews off", async () => {
    const config = configOf({ channelId: "-1001234567890", messageThreadId: "7", disableLinkPreview: true });
    expect(config.chatId).toBe("-1001234567890");
    const { rendered, receipt } = await distribute(plugin, "A text a simple-transform wrote", config);
    expect(rendered.request).toEqual({
      chat_id: -1001234567890,
      text: "A text a simple-transform wrote",
      parse_mode: "HTML",
      message_thread_id: 7,
      link_preview_options: { is_disabled: true },
    });
    expect(receipt.reference?.url).toMatch(/^https:\/\/t\.me\/c\/1234567890\/\d+$/);
  });

  it("escapes a hostile item for HTML, so every character shows as written (bidi overrides removed)", async () => {
    const { rendered } = await distribute(plugin, hostile, configOf({ chatId: "@curate_news" }));
    const text = (rendered.request as { text: string }).text;
    expect(text).not.toMatch(/<script>|<b>not/);
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(text).toContain("&amp;amp; ]]&gt;");
    expect(telegram.sent[0].visible).toBe(
      `${hostile.title.replace("\u202E", "")}\n\n${hostile.content}\n\n${hostile.url}`,
    );
  });

  it("escapes every MarkdownV2 reserved character", async () => {
    const { rendered } = await distribute(
      plugin,
      hostile,
      configOf({ chatId: "@curate_news", parseMode: "MarkdownV2" }),
    );
    const request = rendered.request as { text: string; parse_mode: string };
    expect(request.parse_mode).toBe("MarkdownV2");
    expect(request.text.startsWith("*<script\\>alert\\(1\\)</script\\> \\*\\*bold\\*\\* gnp\\.exe*")).toBe(
      true,
    );
    expect(telegram.sent[0].visible).toBe(
      `${hostile.title.replace("\u202E", "")}\n\n${hostile.content}\n\n${hostile.url}`,
    );
  });

  it("sends plain text without a parse mode when parseMode is none", async () => {
    const { rendered } = await distribute(
      plugin,
      hostile,
      configOf({ chatId: "@curate_news", parseMode: "none" }),
    );
    expect(rendered.request).not.toHaveProperty("parse_mode");
    expect(telegram.sent[0].visible).toBe((rendered.request as { text: string }).text);
  });

  it.each(["HTML", "MarkdownV2"])(
    "trims an over-long item to one %s message, keeping the title and link",
    async (parseMode) => {
      const content = `${"Tiny *solar* cells & panels. ".repeat(200)}🌞👩‍👩‍👧`;
      const { rendered } = await distribute(
        plugin,
        { ...item, content },
        configOf({ chatId: "@curate_news", parseMode }),
      );
      expect(telegram.sent).toHaveLength(1);
      const { visible } = telegram.sent[0];
      expect(visible.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
      expect(visible.length).toBeGreaterThan(TELEGRAM_TEXT_LIMIT - 40);
      expect(visible.startsWith("Solar got cheaper\n\nTiny *solar* cells")).toBe(true);
      expect(visible).toMatch(/…\n\nhttps:\/\/x\.com\/amy\/status\/1900000000000000001$/);
      expect((rendered.request as { text: string }).text.length).toBeGreaterThan(visible.length);
    },
  );

  it("trims a long text with emoji at the limit without splitting a character", async () => {
    const { rendered } = await distribute(plugin, "🌞".repeat(3000), configOf({ chatId: "@curate_news" }));
    const text = (rendered.request as { text: string }).text;
    expect(text).toBe(`${"🌞".repeat(2047)}…`);
    expect(text.length).toBe(4095);
  });

  it("refuses an item with nothing to say", async () => {
    const error = await failure(
      plugin.render({ media: [] }, configOf({ chatId: "@curate_news" }), distributionContext()),
    );
    expect(error).toMatchObject({ code: "TELEGRAM_EMPTY_MESSAGE", retryable: false });
  });
});

describe("Telegram errors say what to fix", () => {
  const send = (config: Record<string, unknown> = { chatId: "@curate_news" }) =>
    failure(distribute(plugin, item, configOf(config)));

  it("a refused bot token is CREDENTIALS_REJECTED, naming the field to check", async () => {
    const error = await failure(
      distribute(
        plugin,
        item,
        stepConfig(
          plugin,
          { botToken: "{{OTHER_BOT}}", chatId: "@curate_news" },
          { server: { OTHER_BOT: "1:bad" } },
        ),
      ),
    );
    expect(error).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(error.message).toMatch(/refused the bot token.*botToken/);
  });

  it("an unknown chat says the bot must be added to it", async () => {
    const error = await send({ chatId: "@nobody_here" });
    expect(error).toMatchObject({ code: "TELEGRAM_CHAT_NOT_FOUND", retryable: false });
    expect(error.message).toMatch(/add the bot to the chat/);
  });

  it("a bot kicked from the channel is a refused credential with a clear message", async () => {
    telegram.failNext(403, "Forbidden: bot was kicked from the channel chat");
    const error = await send();
    expect(error).toMatchObject({ code: CREDENTIALS_REJECTED, retryable: false });
    expect(error.message).toMatch(/does not let the bot post to @curate_news.*kicked.*add the bot/);
  });

  it("a rate limit is retryable after the time Telegram names", async () => {
    telegram.failNext(429, "Too Many Requests: retry after 7", { retry_after: 7 });
    expect(await send()).toMatchObject({
      code: "TELEGRAM_RATE_LIMITED",
      retryable: true,
      retryAfterMs: 7000,
    });
  });

  it("an outage is retryable", async () => {
    telegram.failNext(502, "Bad Gateway");
    expect(await send()).toMatchObject({ code: "TELEGRAM_UNAVAILABLE", retryable: true });
    const unreachable = createTelegramDistributor({ apiRoot: "http://127.0.0.1:9" });
    const error = await failure(distribute(unreachable, item, configOf({ chatId: "@curate_news" })));
    expect(error).toMatchObject({ code: "TELEGRAM_UNREACHABLE", retryable: true });
  });

  it("a group that became a supergroup names the new chat id", async () => {
    telegram.failNext(400, "Bad Request: group chat was upgraded to a supergroup chat", {
      migrate_to_chat_id: -1009876543210,
    });
    const error = await send();
    expect(error).toMatchObject({ code: "TELEGRAM_CHAT_MIGRATED", retryable: false });
    expect(error.message).toMatch(/set chatId to -1009876543210/);
  });
});
