import { describe, expect, it } from "vitest";
import { branchKeys, feedDestinations } from "./destinations.ts";

describe("feedDestinations", () => {
  it("links RSS to the feed's file on its service URL", () => {
    expect(
      feedDestinations(
        [{ plugin: "@curate/rss", config: { serviceUrl: "https://curate.example/rss/" } }],
        "solar",
      ),
    ).toEqual([{ kind: "rss", label: "RSS", href: "https://curate.example/rss/solar/rss.xml" }]);
  });

  it("accepts the @curatedotfun names of older configs", () => {
    const [telegram] = feedDestinations(
      [{ plugin: "@curatedotfun/telegram", config: { channelId: "@near_curated" } }],
      "near",
    );
    expect(telegram).toEqual({ kind: "telegram", label: "Telegram", href: "https://t.me/near_curated" });
  });

  it.each([
    [{ chatId: "@solar_news", messageThreadId: "7" }, "https://t.me/solar_news/7"],
    [{ chatId: "-1001234567890" }, "https://t.me/c/1234567890"],
    [{ chatId: "123" }, null],
    [{ chatId: "{{TELEGRAM_CHAT}}" }, null],
  ])("builds Telegram links from %o", (config, href) => {
    expect(feedDestinations([{ plugin: "@curate/telegram", config }], "f")[0].href).toBe(href);
  });

  it("links Notion, Discord, NEAR Social, Supabase and crosspost from their configs", () => {
    const hrefs = feedDestinations(
      [
        { plugin: "@curate/notion", config: { databaseId: "b7c1e2f4-a9d8-4c3e-8f2a-61d0c5e7b913" } },
        { plugin: "@curate/discord", config: { guildId: "111", channelId: "222" } },
        { plugin: "@curate/near-social", config: { accountId: "curate.near" } },
        { plugin: "@curate/supabase", config: { url: "https://abcd1234.supabase.co", tableName: "posts" } },
        { plugin: "@curate/crosspost", config: { handle: "@curate_fun" } },
      ],
      "f",
    ).map((d) => d.href);
    expect(hrefs).toEqual([
      "https://www.notion.so/b7c1e2f4a9d84c3e8f2a61d0c5e7b913",
      "https://discord.com/channels/111/222",
      "https://near.social/mob.near/widget/ProfilePage?accountId=curate.near",
      "https://supabase.com/dashboard/project/abcd1234",
      "https://x.com/curate_fun",
    ]);
  });

  it("ignores values that still hold template markers", () => {
    const [rss, notion] = feedDestinations(
      [
        { plugin: "@curate/rss", config: { serviceUrl: "{{RSS_URL}}" } },
        { plugin: "@curate/notion", config: { databaseId: "{{NOTION_DB}}" } },
      ],
      "f",
    );
    expect(rss.href).toBeNull();
    expect(notion.href).toBeNull();
  });

  it("links an RSS distributor without a serviceUrl to this deployment's own service when told it", () => {
    const rss = [{ plugin: "@curate/rss", config: {} }];
    expect(feedDestinations(rss, "solar")[0].href).toBeNull();
    expect(feedDestinations(rss, "solar", { ownRssServiceUrl: "https://curate.example/rss" })[0].href).toBe(
      "https://curate.example/rss/solar/rss.xml",
    );
    // A serviceUrl of its own still wins.
    const external = [{ plugin: "@curate/rss", config: { serviceUrl: "https://rss.example" } }];
    expect(
      feedDestinations(external, "solar", { ownRssServiceUrl: "https://curate.example/rss" })[0].href,
    ).toBe("https://rss.example/solar/rss.xml");
  });

  it("gives unknown plugins a badge without a link", () => {
    expect(
      feedDestinations([{ plugin: "@someone/webhook", config: { url: "https://x.example" } }], "f"),
    ).toEqual([{ kind: "@someone/webhook", label: "@someone/webhook", href: null }]);
    expect(feedDestinations(undefined, "f")).toEqual([]);
  });
  it("links a crosspost target on X by its user id, and gives webhooks a label without a link", () => {
    const [crosspost, webhook] = feedDestinations(
      [
        { plugin: "@curate/crosspost", config: { targets: [{ platform: "twitter", userId: "1234567890" }] } },
        { plugin: "@curate/webhook", config: { url: "https://hooks.example/x" } },
      ],
      "f",
    );
    expect(crosspost.href).toBe("https://x.com/i/user/1234567890");
    expect(webhook).toEqual({ kind: "webhook", label: "Webhook", href: null });
  });
});

describe("branchKeys", () => {
  const telegram = { plugin: "@curate/telegram", config: { botToken: "{{TG}}", chatId: "@solar_news" } };
  const discord = { plugin: "@curatedotfun/discord", config: { webhookUrl: "{{DISCORD_WEBHOOK}}" } };
  const hook = {
    plugin: "@curate/webhook",
    config: { url: "https://hooks.example.com/in", secret: "{{H}}" },
  };

  it("keys each entry by its plugin and target, whatever its index", () => {
    const keys = branchKeys([telegram, discord, hook]);
    expect(keys).toEqual([
      "@curate/telegram|@solar_news|",
      "@curate/discord|webhook|{{DISCORD_WEBHOOK}}|",
      "@curate/webhook|https://hooks.example.com/in",
    ]);
    expect(branchKeys([hook, telegram])).toEqual([keys[2], keys[0]]);
  });

  it("keeps the key when only the formatting or a secret changes, and changes it with the target", () => {
    const [key] = branchKeys([telegram]);
    const reformatted = {
      ...telegram,
      config: { ...telegram.config, parseMode: "none", botToken: "{{BOT2}}" },
    };
    expect(branchKeys([reformatted])).toEqual([key]);
    expect(branchKeys([{ plugin: "telegram", config: { channelId: " @solar_news " } }])).toEqual([key]);
    expect(branchKeys([{ ...telegram, config: { chatId: "@wind_news" } }])).not.toEqual([key]);
    expect(branchKeys([{ ...telegram, config: { ...telegram.config, messageThreadId: 7 } }])).not.toEqual([
      key,
    ]);
  });

  it("tells apart entries that share a target by their order among themselves", () => {
    expect(
      branchKeys([telegram, hook, telegram, { plugin: "@acme/poster" }, { plugin: "@acme/poster" }]),
    ).toEqual([
      "@curate/telegram|@solar_news|",
      "@curate/webhook|https://hooks.example.com/in",
      "@curate/telegram|@solar_news|#2",
      "@acme/poster",
      "@acme/poster#2",
    ]);
  });

  it("escapes the separator, so no target can pass for another", () => {
    const [a] = branchKeys([
      { plugin: "@curate/supabase", config: { url: "https://x.supabase.co", table: "a|b" } },
    ]);
    const [b] = branchKeys([
      { plugin: "@curate/supabase", config: { url: "https://x.supabase.co", schema: "a", table: "b" } },
    ]);
    expect(a).toBe("@curate/supabase|https://x.supabase.co||a%7Cb");
    expect(a).not.toBe(b);
  });
});
