import { canonicalPluginName, type DistributorPluginName, findBuiltinPlugin } from "@curate/core";
import type { MailSetting } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import type { Fediverse } from "../fediverse/federation.ts";
import { consumeLimit } from "../limits/service.ts";
import { createActivitypubDistributor } from "./distributors/activitypub.ts";
import { createCrosspostDistributor } from "./distributors/crosspost.ts";
import { createDiscordDistributor } from "./distributors/discord.ts";
import { createEmailDistributor } from "./distributors/email.ts";
import { createNearSocialDistributor } from "./distributors/near-social.ts";
import { createNotionDistributor } from "./distributors/notion.ts";
import { createRssDistributor } from "./distributors/rss.ts";
import { createSupabaseDistributor } from "./distributors/supabase.ts";
import { createTelegramDistributor } from "./distributors/telegram.ts";
import { createWebhookDistributor } from "./distributors/webhook.ts";
import { createAiTransform } from "./transformers/ai-transform.ts";
import { objectTransform } from "./transformers/object-transform.ts";
import { simpleTransform } from "./transformers/simple-transform.ts";
import type { DistributorPlugin, Plugin, TransformerPlugin } from "./types.ts";

export interface PluginRegistry {
  /** The plugin a config names (any alias of a built-in), or null when none is known by that name. */
  resolve(name: string): Plugin | null;
}

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
 * The built-in distributors, one line each, keyed by their names in core's descriptor table (`DISTRIBUTORS`): a
 * distributor missing here, or here without a descriptor, does not compile.
 */
function builtinDistributors(settings: BuiltinSettings): {
  [Name in DistributorPluginName]: DistributorPlugin;
} {
  return {
    rss: createRssDistributor({
      db: settings.db,
      publicUrl: settings.publicUrl,
      allowedHosts: settings.privateHostsAllowed,
    }),
    telegram: createTelegramDistributor({ apiRoot: settings.telegramApiRoot }),
    discord: createDiscordDistributor({ apiBaseUrl: settings.discordApiBaseUrl }),
    notion: createNotionDistributor({ baseUrl: settings.notionApiBaseUrl }),
    supabase: createSupabaseDistributor({ allowedHosts: settings.privateHostsAllowed }),
    "near-social": createNearSocialDistributor({
      rpcUrls: settings.nearRpcUrls,
      privateHostsAllowed: settings.privateHostsAllowed,
    }),
    crosspost: createCrosspostDistributor({ apiUrl: settings.crosspostApiUrl }),
    webhook: createWebhookDistributor({ allowedHosts: settings.privateHostsAllowed }),
    email: createEmailDistributor({ db: settings.db, publicUrl: settings.publicUrl, mail: settings.mail }),
    activitypub: createActivitypubDistributor(settings.fediverse),
  };
}

/** The built-in plugins: the transformers, one line each, then the distributors. */
export function builtinPlugins(settings: BuiltinSettings): Plugin[] {
  return [
    objectTransform,
    simpleTransform,
    createAiTransform({
      baseUrl: settings.aiBaseUrl,
      defaultModel: settings.aiDefaultModel,
      budget: (feedId) =>
        consumeLimit(settings.db, `ai:${feedId}`, settings.aiCallsPerFeedPerHour, 60 * 60_000),
    }),
    ...Object.values(builtinDistributors(settings)),
  ];
}

/** A registry over `plugins`: built-ins answer to every alias of their name, others to their own name. */
export function createPluginRegistry(plugins: Plugin[]): PluginRegistry {
  const byName = new Map<string, Plugin>();
  for (const plugin of plugins) {
    const builtinName = `@curate/${plugin.name}`;
    byName.set(findBuiltinPlugin(builtinName) ? builtinName : plugin.name, plugin);
  }
  return { resolve: (name) => byName.get(canonicalPluginName(name)) ?? null };
}

export type { DistributorPlugin, TransformerPlugin };
