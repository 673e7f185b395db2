import { builtinPluginId, builtinPluginName } from "./plugins.ts";

/**
 * "Posting to:" badges of a feed page: one per stream distributor, with a link to where the content lands
 * when the distributor's config says so. Built-in plugins are `@curate/<name>`; the `@curatedotfun/<name>`
 * names of older configs mean the same plugin.
 */

export interface Destination {
  /** The plugin's short name (rss, telegram, …) or its full name when unknown. */
  kind: string;
  label: string;
  href: string | null;
}

interface DistributorLike {
  plugin: string;
  config?: Record<string, unknown>;
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

export interface DestinationOptions {
  /**
   * This deployment's own RSS service (`{PUBLIC_URL}/rss`): where an RSS distributor without a `serviceUrl`
   * publishes.
   */
  ownRssServiceUrl?: string;
}

const KNOWN: Record<
  string,
  {
    label: string;
    link: (config: Record<string, unknown>, feedId: string, options: DestinationOptions) => string | null;
  }
> = {
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
  },
  telegram: { label: "Telegram", link: telegramLink },
  notion: { label: "Notion", link: notionLink },
  discord: { label: "Discord", link: discordLink },
  "near-social": { label: "NEAR Social", link: nearSocialLink },
  supabase: { label: "Supabase", link: supabaseLink },
  crosspost: { label: "Crosspost", link: microblogLink },
  webhook: { label: "Webhook", link: () => null },
  email: { label: "Email", link: () => null },
  activitypub: { label: "Fediverse", link: () => null },
};

/** The destination of each distributor, in config order; unknown plugins get a label and no link. */
export function feedDestinations(
  distributors: readonly DistributorLike[] | undefined,
  feedId: string,
  options: DestinationOptions = {},
): Destination[] {
  return (distributors ?? []).map((distributor) => {
    const name = builtinPluginName(distributor.plugin);
    const known = name ? KNOWN[name] : undefined;
    if (!known || !name) return { kind: distributor.plugin, label: distributor.plugin, href: null };
    return { kind: name, label: known.label, href: known.link(distributor.config ?? {}, feedId, options) };
  });
}

// --- Branch keys: which publication a re-run edits (decision 0025). ---

/** Only ASCII white space is trimmed, as the migration that filled older rows trims (`btrim`). */
const trimAscii = (text: string) => text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");

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

const TARGETS: Record<string, (config: Record<string, unknown>) => string[]> = {
  rss: (config) => [keyPart(config.serviceUrl)],
  telegram: (config) => [keyPart(either(config, "chatId", "channelId")), keyPart(config.messageThreadId)],
  discord: (config) => {
    const webhook = keyPart(config.webhookUrl);
    return webhook ? ["webhook", webhook, keyPart(config.threadId)] : ["channel", keyPart(config.channelId)];
  },
  notion: (config) => [keyPart(config.databaseId, (id) => id.toLowerCase().replace(/-/g, ""))],
  supabase: (config) => [
    keyPart(either(config, "url", "supabaseUrl")),
    keyPart(config.schema),
    keyPart(either(config, "table", "tableName")),
  ],
  "near-social": (config) => [keyPart(config.accountId), keyPart(config.networkId)],
  crosspost: (config) => [
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
  webhook: (config) => [keyPart(config.url)],
  // The feed's own subscribers: one list, whatever the subject or intro.
  email: () => [],
  // The feed's own actor and its followers: one audience.
  activitypub: () => [],
};

/**
 * The stable identity of each distributor entry of a feed's stream, in config order: the plugin and where it
 * publishes as its config says (Telegram's chat and topic, Discord's webhook or channel, Notion's database,
 * Supabase's table, the webhook's or RSS service's URL, NEAR Social's account, Crosspost's signer and targets),
 * never its formatting. Entries keep their key when others are added, removed or reordered, and a changed target is
 * a new key (a new publication). A plugin this table does not know is keyed by its name; entries that would share a
 * key are told apart by their order among themselves (`#2`, `#3`).
 */
export function branchKeys(distributors: readonly DistributorLike[]): string[] {
  const seen = new Map<string, number>();
  return distributors.map((distributor) => {
    const name = builtinPluginName(distributor.plugin);
    const plugin = name ? builtinPluginId(name) : trimAscii(distributor.plugin);
    const target = name ? TARGETS[name] : undefined;
    const base = [plugin, ...(target ? target(distributor.config ?? {}) : [])].join("|");
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}#${count}`;
  });
}
