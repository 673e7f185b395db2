import { z } from "zod";
import { httpUrlSchema, type NearIntegration } from "./feeds.ts";
import type { DistributorPluginName } from "./plugins.ts";
import { placeholderName, secretField, secretFields } from "./secret-fields.ts";

export {
  PLACEHOLDER_PATTERN,
  placeholderName,
  type SecretFieldOptions,
  type SecretPath,
  secretField,
  secretFields,
  secretPaths,
} from "./secret-fields.ts";

/** The Telegram thread id rule in one wording: the wizard's step 2 and the server's config check. */
export const TELEGRAM_THREAD_ID_MESSAGE =
  "The message thread id is a number (leave it empty for the main thread)";

/**
 * Config schemas of the built-in plugins, shared by the server (validation before a step runs and at save), the
 * editor and the plugin guide. Secret fields are declared with `secretField()`: they accept only a `{{NAME}}`
 * placeholder, which the server fills at run time (never stored, logged or returned filled).
 */

const MAX_TEMPLATE_LENGTH = 10_000;
const MAX_TEMPLATE_DEPTH = 8;

/** A template value of object-transform: a string with `{{path}}` markers, or arrays and objects of them. */
export type TemplateValue =
  | string
  | number
  | boolean
  | null
  | TemplateValue[]
  | { [key: string]: TemplateValue };

function templateValue(depth: number): z.ZodType<TemplateValue> {
  const leaf = z.union([z.string().max(MAX_TEMPLATE_LENGTH), z.number(), z.boolean(), z.null()]);
  if (depth >= MAX_TEMPLATE_DEPTH) return leaf;
  const inner = z.lazy(() => templateValue(depth + 1));
  return z.union([
    leaf,
    z.array(inner).max(100),
    z.record(z.string().max(200), inner),
  ]) as z.ZodType<TemplateValue>;
}

export const objectTransformConfigSchema = z.object({
  mappings: z
    .record(z.string().min(1).max(200), templateValue(1))
    .refine((m) => Object.keys(m).length <= 100, "At most 100 mappings"),
});
export type ObjectTransformConfig = z.infer<typeof objectTransformConfigSchema>;

export const simpleTransformConfigSchema = z.object({
  template: z.string().min(1, "A template is required").max(MAX_TEMPLATE_LENGTH),
});
export type SimpleTransformConfig = z.infer<typeof simpleTransformConfigSchema>;

/** A field of an AI transform's reply, in the JSON Schema subset the wizard writes. */
export type AiFieldSchema = {
  type: "string" | "number" | "integer" | "boolean" | "array" | "object";
  description?: string;
  items?: AiFieldSchema;
  properties?: Record<string, AiFieldSchema>;
};

const aiFieldSchema: z.ZodType<AiFieldSchema> = z.lazy(() =>
  z.object({
    type: z.enum(["string", "number", "integer", "boolean", "array", "object"]),
    description: z.string().max(1000).optional(),
    items: aiFieldSchema.optional(),
    properties: z.record(z.string().max(100), aiFieldSchema).optional(),
  }),
);

export const aiTransformConfigSchema = z.object({
  prompt: z.string().min(1, "A prompt is required").max(20_000),
  apiKey: secretField("The AI service key, as a {{NAME}} placeholder"),
  model: z.string().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** "json": the reply is an object (checked against `schema` when given); "text": `{ [outputKey]: reply }`. */
  outputFormat: z.enum(["json", "text"]).optional(),
  outputKey: z.string().min(1).max(100).optional(),
  schema: z
    .record(z.string().min(1).max(100), aiFieldSchema)
    .refine((s) => Object.keys(s).length <= 50, "At most 50 fields")
    .optional(),
  timeoutMs: z.number().int().min(1000).max(300_000).optional(),
  maxTokens: z.number().int().min(1).max(32_000).optional(),
});
export type AiTransformConfig = z.infer<typeof aiTransformConfigSchema>;

export const rssDistributorConfigSchema = z.object({
  /** The feed's own title, description and page, written into the RSS, Atom and JSON Feed documents. */
  feedConfig: z
    .object({
      title: z.string().max(300).optional(),
      description: z.string().max(5000).optional(),
      siteUrl: httpUrlSchema.optional(),
    })
    .optional(),
  /**
   * The RSS service: this deployment's own (`PUBLIC_URL` + `/rss`) when left out; another service's root address to
   * post items to its item API (`POST /api/items`) with `apiSecret`.
   */
  serviceUrl: httpUrlSchema.optional(),
  /** An external RSS service's bearer secret (not needed for this deployment's own service). */
  apiSecret: secretField("The external RSS service's secret, as a {{NAME}} placeholder").optional(),
  /** How many of the newest items the feed keeps (default 500). */
  maxItems: z.number().int().min(1).max(5000).optional(),
});
export type RssDistributorConfig = z.infer<typeof rssDistributorConfigSchema>;

/**
 * Reads the names older configs use for a field (`channelId` for Telegram's `chatId`) as the canonical one. Only
 * the parsed copy changes: a stored config keeps the names it was written with.
 */
function withAliases(aliases: Record<string, string>) {
  return (value: unknown) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return value;
    const renamed: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [alias, name] of Object.entries(aliases)) {
      if (renamed[name] === undefined && renamed[alias] !== undefined) renamed[name] = renamed[alias];
      delete renamed[alias];
    }
    return renamed;
  };
}

const httpUrl = (message: string) => z.url({ protocol: /^https?$/, error: message }).max(2000);

/** A NEAR account id: named (`curate.near`) or implicit (64 hex). */
const nearAccountId = z
  .string()
  .trim()
  .regex(
    /^(?=.{2,64}$)(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/,
    "A NEAR account id, such as curate.near",
  );

export const TELEGRAM_PARSE_MODES = ["HTML", "MarkdownV2", "none"] as const;
export type TelegramParseMode = (typeof TELEGRAM_PARSE_MODES)[number];

/** The wizard writes `chatId`; configs written for curate.fun say `channelId`. Both mean the chat. */
export const telegramDistributorConfigSchema = z.preprocess(
  withAliases({ channelId: "chatId" }),
  z.object({
    botToken: secretField("The bot's token from @BotFather, as a {{NAME}} placeholder"),
    chatId: z
      .union([
        z
          .string()
          .trim()
          .regex(
            /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/,
            "A chat id (-100… for channels and supergroups) or a public @channel",
          ),
        z.number().int(),
      ])
      .transform(String),
    /** A forum topic of the chat. The wizard writes it as text. */
    messageThreadId: z
      .union([
        z.number().int().positive(),
        z
          .string()
          .trim()
          .regex(/^\d{1,12}$/, TELEGRAM_THREAD_ID_MESSAGE),
      ])
      .transform(Number)
      .optional(),
    /** How the message is formatted: HTML (default), MarkdownV2, or plain text ("none"). */
    parseMode: z.enum(TELEGRAM_PARSE_MODES).optional(),
    disableLinkPreview: z.boolean().optional(),
  }),
);
export type TelegramDistributorConfig = z.infer<typeof telegramDistributorConfigSchema>;

const snowflake = z.union([
  z
    .string()
    .trim()
    .regex(/^\d{5,25}$/, "A Discord id (digits)"),
  z.number().int(),
]);

/** A Discord channel message: through a channel webhook, or a bot token and the channel's id. */
export const discordDistributorConfigSchema = z
  .object({
    webhookUrl: secretField(
      "The channel webhook's URL (channel settings → Integrations → Webhooks), as a {{NAME}} placeholder",
    ).optional(),
    botToken: secretField("A bot token allowed to post in the channel, as a {{NAME}} placeholder").optional(),
    channelId: snowflake.transform(String).optional(),
    /** Only for the feed page's "Posting to:" link. */
    guildId: snowflake.transform(String).optional(),
    /** Posts into this thread of the webhook's channel. */
    threadId: snowflake.transform(String).optional(),
    /** A webhook message's author name and avatar, instead of the webhook's own. */
    username: z.string().trim().min(1).max(80).optional(),
    avatarUrl: httpUrl("An http(s) URL").optional(),
    /** false: plain text instead of an embed. */
    embed: z.boolean().optional(),
  })
  .refine((config) => config.webhookUrl || (config.botToken && config.channelId), {
    message: "Set webhookUrl, or botToken and channelId",
    path: ["webhookUrl"],
  });
export type DiscordDistributorConfig = z.infer<typeof discordDistributorConfigSchema>;

export const NOTION_PROPERTY_TYPES = [
  "title",
  "rich_text",
  "date",
  "number",
  "checkbox",
  "multi_select",
  "select",
  "url",
  "email",
  "phone_number",
] as const;
export type NotionPropertyType = (typeof NOTION_PROPERTY_TYPES)[number];

const notionPropertyType = z.preprocess(
  (value) => (value === "phone" ? "phone_number" : value),
  z.enum(NOTION_PROPERTY_TYPES),
);

/** A Notion id: 32 hexadecimal characters, with or without dashes. */
const notionId = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i, message);

/** A page in a Notion database; `fields` maps the input's fields to the database's properties. */
export const notionDistributorConfigSchema = z.object({
  token: secretField("The integration's secret (Notion: Settings → Connections), as a {{NAME}} placeholder"),
  databaseId: notionId("The database id: the 32 hexadecimal characters of its URL"),
  /**
   * Which of the database's data sources (Notion API 2025-09-03) pages go to; without it, the database's only one. A
   * database with several needs it.
   */
  dataSourceId: notionId(
    "The data source id: 32 hexadecimal characters (Notion: the database's ••• → Manage data sources → Copy data source ID)",
  ).optional(),
  /** Input field (dotted path) → property type, or `{ type, property }` when the property's name differs. */
  fields: z
    .record(
      z.string().min(1).max(200),
      z.union([
        notionPropertyType,
        z.object({ type: notionPropertyType, property: z.string().min(1).max(200) }),
      ]),
    )
    .refine((fields) => Object.keys(fields).length >= 1, "Map at least one input field to a property")
    .refine((fields) => Object.keys(fields).length <= 100, "At most 100 fields"),
  /** A text property that receives the publication's key, so a retried publication finds its page. */
  idempotencyProperty: z.string().min(1).max(200).optional(),
});
export type NotionDistributorConfig = z.infer<typeof notionDistributorConfigSchema>;

const sqlIdentifier = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, "A table or column name (letters, digits, underscores)");

/** A row in a Supabase table. The project URL is the feed's choice, so only a feed secret may fill the key. */
export const supabaseDistributorConfigSchema = z.preprocess(
  withAliases({ supabaseUrl: "url", supabaseKey: "key", tableName: "table" }),
  z.object({
    url: httpUrl("The project URL, such as https://abcd1234.supabase.co"),
    key: secretField("The project's API key (service role or anon with an insert policy), as a feed secret", {
      feedOnly: true,
    }),
    table: sqlIdentifier,
    schema: sqlIdentifier.optional(),
    /** Column → input field (dotted path). Without it the row is the input's top-level fields. */
    columns: z
      .record(sqlIdentifier, z.string().min(1).max(200))
      .refine((columns) => Object.keys(columns).length <= 100, "At most 100 columns")
      .optional(),
    /** A unique column that receives the publication's key: a retried publication finds its row. */
    idempotencyColumn: sqlIdentifier.optional(),
    /** The column that identifies a row in the receipt (default `id`). */
    idColumn: sqlIdentifier.optional(),
  }),
);
export type SupabaseDistributorConfig = z.infer<typeof supabaseDistributorConfigSchema>;

/** A post on NEAR Social (the social.near contract) by the configured account. */
export const nearSocialDistributorConfigSchema = z.object({
  accountId: nearAccountId,
  privateKey: secretField("The account's key (ed25519:…), as a {{NAME}} placeholder"),
  networkId: z.enum(["mainnet", "testnet"]).optional(),
  /** A NEAR RPC node of the feed's choosing (public addresses only); unset, the server's node for the network. */
  rpcUrl: httpUrl("An http(s) URL of a NEAR RPC node").optional(),
});
export type NearSocialDistributorConfig = z.infer<typeof nearSocialDistributorConfigSchema>;

/** A post through the Open Crosspost API, signed by a NEAR account that has connected the targets. */
export const crosspostDistributorConfigSchema = z.object({
  signerId: nearAccountId,
  keyPair: secretField("The signer's key (ed25519:…), as a {{NAME}} placeholder"),
  targets: z
    .array(
      z.object({
        platform: z.string().trim().toLowerCase().min(1).max(40),
        userId: z.string().trim().min(1).max(200),
      }),
    )
    .min(1, "Add at least one target")
    .max(20),
  /** Longest post text (default 280, X's limit for most accounts). */
  maxLength: z.number().int().min(1).max(25_000).optional(),
});
export type CrosspostDistributorConfig = z.infer<typeof crosspostDistributorConfigSchema>;

/** A signed JSON POST to a URL the feed chooses; the signing secret is therefore a feed secret. */
export const webhookDistributorConfigSchema = z.object({
  url: httpUrl("An http(s) URL"),
  secret: secretField("The signing secret shared with the receiver, as a feed secret's {{NAME}}", {
    feedOnly: true,
  }),
  /** The X-Curate-Event header (default `item.published`). */
  event: z
    .string()
    .regex(/^[a-z][a-z0-9_.-]{0,63}$/, "Lower-case letters, digits, dots, dashes, underscores")
    .optional(),
  timeoutMs: z.number().int().min(1000).max(30_000).optional(),
});
export type WebhookDistributorConfig = z.infer<typeof webhookDistributorConfigSchema>;

/**
 * An email newsletter to the feed's confirmed subscribers (issue 34): in the stream, to those who chose every item;
 * in a recap, to those who chose the digest. The relay is the server's (SMTP_URL), so the config holds no secret.
 */
export const emailDistributorConfigSchema = z.object({
  /** The subject; unset, the item's title (or the recap's name). `{{feedName}}` is replaced by the feed's name. */
  subject: z.string().trim().min(1).max(200, "A subject is at most 200 characters").optional(),
  /** A line above the content of every mail. */
  intro: z.string().trim().max(2000, "The intro is at most 2000 characters").optional(),
});
export type EmailDistributorConfig = z.infer<typeof emailDistributorConfigSchema>;

/**
 * The feed's fediverse actor (issue 35): each approved item becomes a note its followers receive. The actor is
 * turned on in the feed's settings; the config only chooses whether the curator is credited.
 */
export const activitypubDistributorConfigSchema = z.object({
  creditCurator: z.boolean().default(true),
});
export type ActivitypubDistributorConfig = z.infer<typeof activitypubDistributorConfigSchema>;

/**
 * Config schemas by built-in short name; plugins without one here accept any object. Every built-in distributor has
 * one (a new distributor without its schema does not compile).
 */
export const BUILTIN_CONFIG_SCHEMAS: Partial<Record<string, z.ZodType>> = {
  "object-transform": objectTransformConfigSchema,
  "simple-transform": simpleTransformConfigSchema,
  "ai-transform": aiTransformConfigSchema,
  rss: rssDistributorConfigSchema,
  telegram: telegramDistributorConfigSchema,
  discord: discordDistributorConfigSchema,
  notion: notionDistributorConfigSchema,
  supabase: supabaseDistributorConfigSchema,
  "near-social": nearSocialDistributorConfigSchema,
  crosspost: crosspostDistributorConfigSchema,
  webhook: webhookDistributorConfigSchema,
  email: emailDistributorConfigSchema,
  activitypub: activitypubDistributorConfigSchema,
} satisfies { [Name in DistributorPluginName]: z.ZodType } & Record<string, z.ZodType>;

export interface PlaceholderUse {
  /** Where in the feed config the placeholder sits (`outputs.stream.transform.1.config.apiKey`). */
  path: string;
  name: string;
}

function placeholdersAt(value: unknown, path: string[], at: string, out: PlaceholderUse[]) {
  if (path.length === 0) {
    const name = placeholderName(value);
    if (name) out.push({ path: at, name });
    return;
  }
  const [head, ...rest] = path;
  if (head === "*") {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) placeholdersAt(item, rest, `${at}.${i}`, out);
    }
    return;
  }
  if (value && typeof value === "object" && Object.hasOwn(value, head)) {
    placeholdersAt((value as Record<string, unknown>)[head], rest, `${at}.${head}`, out);
  }
}

interface StepLike {
  plugin: string;
  config?: unknown;
}

/**
 * The `{{NAME}}` placeholders a feed's stream needs at run time (the required secret fields of its built-in steps),
 * so the wizard and the editor can warn about names the server cannot fill. `builtinName` maps a plugin name to its
 * built-in short name (core's plugin table), kept as a parameter so this module needs nothing else.
 */
export function streamPlaceholders(
  stream: { transform?: StepLike[]; distribute?: Array<StepLike & { transform?: StepLike[] }> } | undefined,
  builtinName: (plugin: string) => string | null,
): PlaceholderUse[] {
  const out: PlaceholderUse[] = [];
  const visit = (step: StepLike, at: string) => {
    const name = builtinName(step.plugin);
    const schema = name ? BUILTIN_CONFIG_SCHEMAS[name] : undefined;
    if (!schema) return;
    for (const field of secretFields(schema)) {
      if (!field.optional) placeholdersAt(step.config, field.path.split("."), `${at}.config`, out);
    }
  };
  for (const [i, step] of (stream?.transform ?? []).entries()) visit(step, `outputs.stream.transform.${i}`);
  for (const [i, distributor] of (stream?.distribute ?? []).entries()) {
    for (const [j, step] of (distributor.transform ?? []).entries()) {
      visit(step, `outputs.stream.distribute.${i}.transform.${j}`);
    }
    visit(distributor, `outputs.stream.distribute.${i}`);
  }
  return out;
}

/** Where each field of a built-in's config may come from in the feed's integration settings, when it is left out. */
const NEAR_DEFAULTS: Record<string, keyof NearIntegration> = {
  accountId: "parentAccountId",
  privateKey: "parentKeyPair",
  networkId: "networkId",
  rpcUrl: "rpcUrl",
};

/**
 * A step's config as it runs: the NEAR Social distributor takes each field its own config leaves out from the feed's
 * NEAR integration settings (`integrations.near`); every other step runs its config as written. `builtinName` is
 * the built-in short name of the step's plugin (core's plugin table), or null.
 */
export function effectiveStepConfig(
  builtinName: string | null,
  config: Record<string, unknown> | undefined,
  integrations: { near?: NearIntegration } | undefined,
): Record<string, unknown> {
  const own = config ?? {};
  const near = integrations?.near;
  if (builtinName !== "near-social" || !near) return own;
  const filled = { ...own };
  for (const [field, setting] of Object.entries(NEAR_DEFAULTS)) {
    const value = near[setting];
    if ((filled[field] === undefined || filled[field] === "") && value !== undefined) filled[field] = value;
  }
  return filled;
}
