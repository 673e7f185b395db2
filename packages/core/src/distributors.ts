import type { DistributorPluginName } from "./plugins.ts";

/**
 * One descriptor per built-in distributor: what the feed page, the ledger, previews, the Retract dialog, re-runs and
 * the secret scan know of it. Server and web read this table; it is keyed by every built-in distributor's name, so
 * a new distributor without its entry does not compile (its config schema sits beside it in `plugin-configs.ts`,
 * its sending code in the server's `plugins/distributors/`). Free of zod, so first-load pages may read it.
 */

/** How a dry run's request for the channel is previewed (the web's channel previews). */
export type PreviewKind = "telegram" | "discord" | "notion" | "rss" | "email" | "json";

export interface DistributorDescriptor {
  /** The channel's name on the feed page's "Posting to:" badges. */
  label: string;
  /** Where the channel's content can be seen, from its config; null when it has no public address. */
  link: (config: Record<string, unknown>, feedId: string, options: DestinationOptions) => string | null;
  /**
   * Where it publishes, as its config says, never its formatting: the parts of the branch key that decide which
   * publication a re-run edits (decision 0025). A changed target is a new publication.
   */
  branchTarget: (config: Record<string, unknown>) => string[];
  previewKind: PreviewKind;
  /** What one send makes, in words, by the kind of reference it returns ("telegram-message" → "message"). */
  references: Readonly<Record<string, string>>;
  /** What a retraction does to what it published, as the Retract dialog says it. */
  retraction: string;
  /**
   * Whether a re-run edits the live publication it replays (decision 0015); where not, the runner leaves that as
   * it is and sends nothing. The shared contract suite holds each channel's render to it.
   */
  editsOnReplay: (config: Record<string, unknown>, options: DestinationOptions) => boolean;
  /**
   * Whether a retraction takes the publication back (or finds it gone); where not, it answers why and the ledger
   * lists it as "cannot retract" (decision 0016). The shared contract suite holds each channel's retract to it.
   */
  retracts: (config: Record<string, unknown>, options: DestinationOptions) => boolean;
  /** Shapes of the raw credentials its config could be given, refused by the secret scan, with their names. */
  credentials: ReadonlyArray<readonly [RegExp, string]>;
}

export interface DestinationOptions {
  /**
   * This deployment's own RSS service (`{PUBLIC_URL}/rss`): where an RSS distributor without a `serviceUrl`
   * publishes.
   */
  ownRssServiceUrl?: string;
}

/** A config string usable in a link: present, and not a `{{NAME}}` template still waiting to be filled. */
function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  if (!trimmed || trimmed.includes("{{")) return null;
  return trimmed;
}

function httpUrl(value: unknown): string | null {
  const candidate = text(value);
  if (!candidate) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

const always = () => true;
const never = () => false;

/** An RSS distributor writes to this deployment's own service when its config names none, or names that one. */
function ownRssService(config: Record<string, unknown>, options: DestinationOptions): boolean {
  const configured = config.serviceUrl;
  if (configured === undefined || configured === null || configured === "") return true;
  const own = httpUrl(options.ownRssServiceUrl);
  return own !== null && httpUrl(configured) === own;
}

function first(config: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) {
    const value = text(config[key]);
    if (value) return value;
  }
  return null;
}

function telegramLink(config: Record<string, unknown>): string | null {
  const chat = first(config, ["channelId", "chatId", "channel", "chat"]);
  if (!chat) return null;
  const thread = text(config.messageThreadId);
  if (/^@?[A-Za-z][A-Za-z0-9_]{3,}$/.test(chat) && !/^-?\d+$/.test(chat)) {
    const name = chat.replace(/^@/, "");
    return thread ? `https://t.me/${name}/${thread}` : `https://t.me/${name}`;
  }
  // Private supergroups and channels are "-100<id>"; members open them as t.me/c/<id>.
  const privateId = chat.match(/^-100(\d+)$/)?.[1];
  if (privateId) return thread ? `https://t.me/c/${privateId}/${thread}` : `https://t.me/c/${privateId}`;
  return null;
}

function notionLink(config: Record<string, unknown>): string | null {
  const id = first(config, ["databaseId", "database_id"]);
  if (!id || !/^[0-9a-f-]{32,36}$/i.test(id)) return null;
  return `https://www.notion.so/${id.replace(/-/g, "")}`;
}

function discordLink(config: Record<string, unknown>): string | null {
  const channel = first(config, ["channelId"]);
  const guild = first(config, ["guildId", "serverId"]);
  if (!channel || !guild || !/^\d+$/.test(channel) || !/^\d+$/.test(guild)) return null;
  return `https://discord.com/channels/${guild}/${channel}`;
}

function nearSocialLink(config: Record<string, unknown>): string | null {
  const account = first(config, ["accountId", "signerId"]);
  if (!account || !/^[a-z0-9._-]+$/.test(account)) return null;
  return `https://near.social/mob.near/widget/ProfilePage?accountId=${encodeURIComponent(account)}`;
}

function supabaseLink(config: Record<string, unknown>): string | null {
  const url = httpUrl(config.url ?? config.supabaseUrl);
  const ref = url?.match(/^https:\/\/([a-z0-9]+)\.supabase\.co$/)?.[1];
  return ref ? `https://supabase.com/dashboard/project/${ref}` : null;
}

function microblogLink(config: Record<string, unknown>): string | null {
  const handle = first(config, ["handle", "username", "accountHandle"])?.replace(/^@/, "");
  if (handle && /^[A-Za-z0-9_]{1,15}$/.test(handle)) return `https://x.com/${handle}`;
  // Crosspost configs name their targets by the network's user id; X opens a profile by its numeric id too.
  const [target] = Array.isArray(config.targets) ? (config.targets as Array<Record<string, unknown>>) : [];
  const userId = target && text(target.userId);
  return userId && target.platform === "twitter" && /^\d{1,20}$/.test(userId)
    ? `https://x.com/i/user/${userId}`
    : null;
}

/** Only ASCII white space is trimmed, as the migration that filled older rows trims (`btrim`). */
export const trimAscii = (text: string) => text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");

/** Text and numbers as written, placeholders kept (a new secret behind `{{NAME}}` is the same target). */
function rawPart(value: unknown): string {
  if (typeof value === "string") return trimAscii(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "";
}

/** One part of a key: normalised, bounded, and escaped so the separator can never appear inside a part. */
function keyPart(value: unknown, normalise: (text: string) => string = (text) => text): string {
  return normalise(rawPart(value)).slice(0, 500).replace(/%/g, "%25").replace(/\|/g, "%7C");
}

/** An alias that the config schema renames (`channelId` → `chatId`): the name wins when both are there. */
const either = (config: Record<string, unknown>, name: string, alias: string) =>
  config[name] === undefined ? config[alias] : config[name];

export const DISTRIBUTORS: { readonly [Name in DistributorPluginName]: DistributorDescriptor } = {
  rss: {
    label: "RSS",
    link: (config, feedId, options) => {
      const configured = config.serviceUrl;
      const service = httpUrl(
        configured === undefined || configured === null || configured === ""
          ? options.ownRssServiceUrl
          : configured,
      );
      return service ? `${service}/${encodeURIComponent(feedId)}/rss.xml` : null;
    },
    branchTarget: (config) => [keyPart(config.serviceUrl)],
    previewKind: "rss",
    references: { "rss-item": "feed" },
    retraction: "The item leaves the feed's RSS, Atom and JSON feeds.",
    editsOnReplay: ownRssService,
    retracts: ownRssService,
    credentials: [],
  },
  telegram: {
    label: "Telegram",
    link: telegramLink,
    branchTarget: (config) => [
      keyPart(either(config, "chatId", "channelId")),
      keyPart(config.messageThreadId),
    ],
    previewKind: "telegram",
    references: { "telegram-message": "message" },
    retraction: "Telegram messages are deleted.",
    editsOnReplay: always,
    retracts: always,
    credentials: [
      [/\b\d{6,12}:[A-Za-z0-9_-]{30,}\b/, "a Telegram bot token"],
      // In a Bot API URL the token follows "bot" with no word boundary between them.
      [/\/bot\d{6,12}:[A-Za-z0-9_-]{30,}/, "a Telegram bot token"],
    ],
  },
  discord: {
    label: "Discord",
    link: discordLink,
    branchTarget: (config) => {
      const webhook = keyPart(config.webhookUrl);
      return webhook
        ? ["webhook", webhook, keyPart(config.threadId)]
        : ["channel", keyPart(config.channelId)];
    },
    previewKind: "discord",
    references: { "discord-message": "message" },
    retraction: "Discord messages are deleted.",
    editsOnReplay: always,
    retracts: always,
    credentials: [[/discord(app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+/, "a Discord webhook URL"]],
  },
  notion: {
    label: "Notion",
    link: notionLink,
    branchTarget: (config) => [keyPart(config.databaseId, (id) => id.toLowerCase().replace(/-/g, ""))],
    previewKind: "notion",
    references: { "notion-page": "page" },
    retraction: "Notion pages are archived.",
    editsOnReplay: always,
    retracts: always,
    credentials: [
      [/\bsecret_[A-Za-z0-9]{30,}/, "a Notion secret"],
      [/\bntn_[A-Za-z0-9]{30,}/, "a Notion token"],
    ],
  },
  supabase: {
    label: "Supabase",
    link: supabaseLink,
    branchTarget: (config) => [
      keyPart(either(config, "url", "supabaseUrl")),
      keyPart(config.schema),
      keyPart(either(config, "table", "tableName")),
    ],
    previewKind: "json",
    references: { "supabase-row": "row" },
    retraction: "Supabase rows are deleted.",
    editsOnReplay: always,
    retracts: always,
    credentials: [[/\bsb_secret_[A-Za-z0-9_-]{16,}/, "a Supabase secret key"]],
  },
  "near-social": {
    label: "NEAR Social",
    link: nearSocialLink,
    branchTarget: (config) => [keyPart(config.accountId), keyPart(config.networkId)],
    previewKind: "json",
    references: { "near-transaction": "transaction" },
    retraction: "Posts on NEAR Social stay (they are on chain); they are listed as “cannot retract”.",
    editsOnReplay: never,
    retracts: never,
    credentials: [[/\bed25519:[1-9A-HJ-NP-Za-km-z]{80,}/, "a NEAR private key"]],
  },
  crosspost: {
    label: "Crosspost",
    link: microblogLink,
    branchTarget: (config) => [
      keyPart(config.signerId),
      (Array.isArray(config.targets) ? config.targets : [])
        .map((target) => {
          const { platform, userId } = (target && typeof target === "object" ? target : {}) as Record<
            string,
            unknown
          >;
          return `${keyPart(platform, (name) => name.toLowerCase())}:${keyPart(userId)}`;
        })
        .join(","),
    ],
    previewKind: "json",
    references: { crosspost: "post" },
    retraction: "Posts made through Crosspost stay; they are listed as “cannot retract”.",
    editsOnReplay: never,
    retracts: never,
    credentials: [],
  },
  webhook: {
    label: "Webhook",
    link: () => null,
    branchTarget: (config) => [keyPart(config.url)],
    previewKind: "json",
    references: { "webhook-delivery": "delivery" },
    retraction: "Webhooks are sent an item.retracted delivery naming what to take down.",
    editsOnReplay: always,
    retracts: always,
    credentials: [],
  },
  email: {
    label: "Email",
    link: () => null,
    // The feed's own subscribers: one list, whatever the subject or intro.
    branchTarget: () => [],
    previewKind: "email",
    references: { "email-issue": "issue" },
    retraction: "Emails not sent yet are cancelled; those already sent stay.",
    editsOnReplay: never,
    retracts: never,
    credentials: [],
  },
  activitypub: {
    label: "Fediverse",
    link: () => null,
    // The feed's own actor and its followers: one audience.
    branchTarget: () => [],
    previewKind: "json",
    references: { "activitypub-note": "post" },
    retraction: "Fediverse posts are deleted: followers' servers are sent a Delete.",
    editsOnReplay: always,
    retracts: always,
    credentials: [],
  },
};

/** Every built-in distributor's descriptor, in the table's order. */
export const DISTRIBUTOR_ENTRIES = Object.entries(DISTRIBUTORS) as Array<
  [DistributorPluginName, DistributorDescriptor]
>;

/** What a send made, in words, by its reference's kind ("message", "page"), or null for a kind no distributor sends. */
export function referenceNoun(kind: string): string | null {
  for (const [, descriptor] of DISTRIBUTOR_ENTRIES) {
    const noun = descriptor.references[kind];
    if (noun) return noun;
  }
  return null;
}
