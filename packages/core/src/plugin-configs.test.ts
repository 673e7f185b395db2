import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  aiTransformConfigSchema,
  BUILTIN_CONFIG_SCHEMAS,
  crosspostDistributorConfigSchema,
  discordDistributorConfigSchema,
  notionDistributorConfigSchema,
  objectTransformConfigSchema,
  placeholderName,
  secretField,
  secretFields,
  secretPaths,
  streamPlaceholders,
  supabaseDistributorConfigSchema,
  telegramDistributorConfigSchema,
  webhookDistributorConfigSchema,
} from "./plugin-configs.ts";

describe("secret fields", () => {
  it("accept only a {{NAME}} placeholder", () => {
    const field = secretField("A token");
    expect(field.safeParse("{{BOT_TOKEN}}").success).toBe(true);
    expect(field.safeParse(" {{ BOT_TOKEN }} ").success).toBe(true);
    for (const raw of ["123456:abcdef", "{{lower}}", "x{{BOT_TOKEN}}", "{{BOT_TOKEN}}x", ""]) {
      expect(field.safeParse(raw).success, raw).toBe(false);
    }
  });

  it("are found by path through objects, arrays and optional wrappers", () => {
    const schema = z.object({
      token: secretField("t"),
      auth: z.object({ header: secretField("h").optional(), user: z.string() }).optional(),
      targets: z.array(z.object({ key: secretField("k") })).default([]),
      plain: z.string(),
    });
    expect(secretPaths(schema)).toEqual(["token", "auth.header", "targets.*.key"]);
    expect(secretPaths(aiTransformConfigSchema)).toEqual(["apiKey"]);
  });

  it("reads a placeholder's variable name", () => {
    expect(placeholderName("{{AI_API_KEY}}")).toBe("AI_API_KEY");
    expect(placeholderName("{{ai}}")).toBeNull();
    expect(placeholderName(42)).toBeNull();
  });
});

describe("object-transform config", () => {
  it("takes nested templates and refuses nesting deeper than the limit", () => {
    expect(
      objectTransformConfigSchema.safeParse({
        mappings: { title: "{{title}}", author: { name: "{{author}}" }, tags: ["a", "{{feed}}"], n: 3 },
      }).success,
    ).toBe(true);
    let deep: unknown = "{{x}}";
    for (let i = 0; i < 20; i++) deep = { d: deep };
    expect(objectTransformConfigSchema.safeParse({ mappings: { deep } }).success).toBe(false);
  });
});

describe("streamPlaceholders", () => {
  it("lists the placeholders of built-in steps' required secret fields, with where they sit", async () => {
    const { builtinPluginName } = await import("./plugins.ts");
    const { defaultStreamTransforms } = await import("./feed-draft.ts");
    const uses = streamPlaceholders(
      {
        transform: defaultStreamTransforms(),
        distribute: [
          {
            plugin: "@curate/rss",
            config: { apiSecret: "{{RSS_SERVICE_SECRET}}", serviceUrl: "{{NOT_SECRET}}" },
          },
        ],
      },
      builtinPluginName,
    );
    // Only required secrets: the RSS service's optional one never makes a step fail.
    expect(uses).toEqual([{ path: "outputs.stream.transform.1.config.apiKey", name: "AI_API_KEY" }]);
  });
});

describe("distributor configs", () => {
  it("have a schema for every built-in distributor, each with its secret fields marked", () => {
    expect(
      Object.fromEntries(
        ["telegram", "discord", "notion", "supabase", "near-social", "crosspost", "webhook"].map((name) => [
          name,
          secretFields(BUILTIN_CONFIG_SCHEMAS[name] ?? z.never()).map(
            (f) => `${f.path}${f.feedOnly ? " (feed)" : ""}`,
          ),
        ]),
      ),
    ).toEqual({
      telegram: ["botToken"],
      discord: ["webhookUrl", "botToken"],
      notion: ["token"],
      supabase: ["key (feed)"],
      "near-social": ["privateKey"],
      crosspost: ["keyPair"],
      webhook: ["secret (feed)"],
    });
  });

  it("read Telegram's channelId (the demo data's name) as chatId, and the wizard's topic text as a number", () => {
    const parsed = telegramDistributorConfigSchema.parse({
      botToken: "{{TELEGRAM_BOT_TOKEN}}",
      channelId: "@near_curated",
      messageThreadId: "7",
    });
    expect(parsed).toEqual({
      botToken: "{{TELEGRAM_BOT_TOKEN}}",
      chatId: "@near_curated",
      messageThreadId: 7,
    });
    expect(
      telegramDistributorConfigSchema.parse({
        botToken: "{{T}}",
        chatId: -1001234567890,
        channelId: "@other",
      }),
    ).toMatchObject({ chatId: "-1001234567890" });
    const missing = telegramDistributorConfigSchema.safeParse({ botToken: "{{T}}" });
    expect(missing.error?.issues[0].path).toEqual(["chatId"]);
    expect(
      telegramDistributorConfigSchema.safeParse({ botToken: "123:raw", chatId: "@a_chat" }).success,
    ).toBe(false);
  });

  it("read Supabase's older names and Notion's short phone type", () => {
    expect(
      supabaseDistributorConfigSchema.parse({
        supabaseUrl: "https://abcd1234.supabase.co",
        supabaseKey: "{{SUPABASE_KEY}}",
        tableName: "posts",
      }),
    ).toEqual({ url: "https://abcd1234.supabase.co", key: "{{SUPABASE_KEY}}", table: "posts" });
    expect(
      notionDistributorConfigSchema.parse({
        token: "{{N}}",
        databaseId: "b7c1e2f4a9d84c3e8f2a61d0c5e7b913",
        fields: { tel: "phone" },
      }).fields,
    ).toEqual({ tel: "phone_number" });
    expect(
      notionDistributorConfigSchema.safeParse({
        token: "{{N}}",
        databaseId: "b7c1e2f4a9d84c3e8f2a61d0c5e7b913",
        fields: {},
      }).success,
    ).toBe(false);
  });

  it("ask Discord for a webhook, or a bot token and a channel", () => {
    expect(discordDistributorConfigSchema.safeParse({ webhookUrl: "{{DISCORD_WEBHOOK}}" }).success).toBe(
      true,
    );
    expect(
      discordDistributorConfigSchema.safeParse({ botToken: "{{BOT}}", channelId: "222333444555" }).success,
    ).toBe(true);
    const neither = discordDistributorConfigSchema.safeParse({ botToken: "{{BOT}}" });
    expect(neither.error?.issues[0]).toMatchObject({ path: ["webhookUrl"] });
  });

  it("take only http(s) URLs where a feed chooses where data goes", () => {
    for (const url of ["ftp://x.example/hook", "file:///etc/passwd", "javascript:alert(1)"]) {
      expect(webhookDistributorConfigSchema.safeParse({ url, secret: "{{S}}" }).success, url).toBe(false);
    }
    expect(
      webhookDistributorConfigSchema.safeParse({ url: "https://hooks.example/x", secret: "{{S}}" }).success,
    ).toBe(true);
    expect(
      crosspostDistributorConfigSchema.safeParse({ signerId: "curate.near", keyPair: "{{K}}", targets: [] })
        .success,
    ).toBe(false);
  });

  it("list the Telegram token of a config written with channelId", async () => {
    const { builtinPluginName } = await import("./plugins.ts");
    const uses = streamPlaceholders(
      {
        distribute: [
          {
            plugin: "@curatedotfun/telegram",
            config: { botToken: "{{TELEGRAM_BOT_TOKEN}}", channelId: "@x_y_z" },
          },
          { plugin: "@curate/webhook", config: { url: "https://hooks.example", secret: "{{HOOK_SECRET}}" } },
        ],
      },
      builtinPluginName,
    );
    expect(uses).toEqual([
      { path: "outputs.stream.distribute.0.config.botToken", name: "TELEGRAM_BOT_TOKEN" },
      { path: "outputs.stream.distribute.1.config.secret", name: "HOOK_SECRET" },
    ]);
  });
});
