import { canonicalPluginName, type DistributorPluginName, findBuiltinPlugin } from "@curate/core";
import type { MailSetting } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import type { Fediverse } from "../fediverse/federation.ts";
import { loadOnce } from "../lib/load-once.ts";
import { consumeLimit } from "../limits/service.ts";
import { objectTransform } from "./transformers/object-transform.ts";
import { simpleTransform } from "./transformers/simple-transform.ts";
import type { DistributorPlugin, Plugin, TransformerPlugin } from "./types.ts";

export interface PluginRegistry {
  /**
   * The plugin a config names (any alias of a built-in), or null when none is known by that name; a plugin named
   * by a loader is loaded on the first call.
   */
  resolve(name: string): Promise<Plugin | null>;
}

/**
 * A plugin known by its name before its code is loaded. Each distributor's module brings its service's SDK
 * (grammy, Notion's, Supabase's, NEAR's, …): a process loads one only when it first runs that plugin, so an
 * API-only process that never previews a channel never loads its SDK.
 */
export interface PluginLoader {
  name: string;
  load(): Promise<Plugin>;
}

export type PluginEntry = Plugin | PluginLoader;

export interface BuiltinSettings {
  db: Database;
  publicUrl: string;
  aiBaseUrl: string;
  aiDefaultModel: string;
  aiCallsPerFeedPerHour: number;
  telegramApiRoot: string;
  discordApiBaseUrl: string;
  notionApiBaseUrl: string;
  nearRpcUrls: { mainnet: string; testnet: string };
  crosspostApiUrl: string;
  /** Hosts URLs a feed chooses may reach although they are not public (`PRIVATE_HOSTS_ALLOWED`). */
  privateHostsAllowed: readonly string[];
  /** Where newsletters go (SMTP_URL, the development catch-all, or nowhere). */
  mail: MailSetting;
  /** The feeds' ActivityPub actors (the fediverse distributor builds its ids and activities with it). */
  fediverse: Fediverse;
}

/**
 * The built-in distributors, one loader each, keyed by their names in core's descriptor table (`DISTRIBUTORS`): a
 * distributor missing here, or here without a descriptor, does not compile.
 */
function builtinDistributors(settings: BuiltinSettings): {
  [Name in DistributorPluginName]: () => Promise<DistributorPlugin>;
} {
  return {
    rss: async () =>
      (await import("./distributors/rss.ts")).createRssDistributor({
        db: settings.db,
        publicUrl: settings.publicUrl,
        allowedHosts: settings.privateHostsAllowed,
      }),
    telegram: async () =>
      (await import("./distributors/telegram.ts")).createTelegramDistributor({
        apiRoot: settings.telegramApiRoot,
      }),
    discord: async () =>
      (await import("./distributors/discord.ts")).createDiscordDistributor({
        apiBaseUrl: settings.discordApiBaseUrl,
      }),
    notion: async () =>
      (await import("./distributors/notion.ts")).createNotionDistributor({
        baseUrl: settings.notionApiBaseUrl,
      }),
    supabase: async () =>
      (await import("./distributors/supabase.ts")).createSupabaseDistributor({
        allowedHosts: settings.privateHostsAllowed,
      }),
    "near-social": async () =>
      (await import("./distributors/near-social.ts")).createNearSocialDistributor({
        rpcUrls: settings.nearRpcUrls,
        privateHostsAllowed: settings.privateHostsAllowed,
      }),
    crosspost: async () =>
      (await import("./distributors/crosspost.ts")).createCrosspostDistributor({
        apiUrl: settings.crosspostApiUrl,
      }),
    webhook: async () =>
      (await import("./distributors/webhook.ts")).createWebhookDistributor({
        allowedHosts: settings.privateHostsAllowed,
      }),
    email: async () =>
      (await import("./distributors/email.ts")).createEmailDistributor({
        db: settings.db,
        publicUrl: settings.publicUrl,
        mail: settings.mail,
      }),
    activitypub: async () =>
      (await import("./distributors/activitypub.ts")).createActivitypubDistributor(settings.fediverse),
  };
}

/**
 * The built-in plugins: the local transformers, the AI transform (loaded with its SDK when first run), then the
 * distributors.
 */
export function builtinPlugins(settings: BuiltinSettings): PluginEntry[] {
  return [
    objectTransform,
    simpleTransform,
    {
      name: "ai-transform",
      load: async () =>
        (await import("./transformers/ai-transform.ts")).createAiTransform({
          baseUrl: settings.aiBaseUrl,
          defaultModel: settings.aiDefaultModel,
          budget: (feedId) =>
            consumeLimit(settings.db, `ai:${feedId}`, settings.aiCallsPerFeedPerHour, 60 * 60_000),
        }),
    },
    ...Object.entries(builtinDistributors(settings)).map(([name, load]) => ({ name, load })),
  ];
}

/**
 * A registry over `entries`: built-ins answer to every alias of their name, others to their own name. A loader runs
 * once; one that failed runs again on the next call.
 */
export function createPluginRegistry(entries: PluginEntry[]): PluginRegistry {
  const byName = new Map<string, () => Promise<Plugin>>();
  for (const entry of entries) {
    const builtinName = `@curate/${entry.name}`;
    const load = "load" in entry ? loadOnce(() => entry.load()).get : () => Promise.resolve(entry);
    byName.set(findBuiltinPlugin(builtinName) ? builtinName : entry.name, load);
  }
  return { resolve: async (name) => (await byName.get(canonicalPluginName(name))?.()) ?? null };
}

export type { DistributorPlugin, TransformerPlugin };
