/**
 * The built-in plugins and the names feed configs may use for them: one table for the server's registry, the
 * web's editor and destination links. Built-ins are `@curate/<name>`; the `@curatedotfun/<name>` names of
 * configs written for the reference product, the bare short name (`rss`) and a few further aliases mean the same
 * plugin, and only ever a built-in (decision 0022). Free of zod so any page can use it cheaply.
 */

export const PLUGIN_TYPES = ["transformer", "distributor", "source", "rule", "outcome"] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

export interface BuiltinPlugin {
  /** The short name: `rss` for `@curate/rss`. */
  name: string;
  type: PluginType;
  label: string;
  /** Further names that mean this plugin, besides `<name>`, `@curate/<name>` and `@curatedotfun/<name>`. */
  aliases?: readonly string[];
}

export const BUILTIN_PLUGINS = [
  { name: "object-transform", type: "transformer", label: "Object transform" },
  { name: "simple-transform", type: "transformer", label: "Simple transform" },
  { name: "ai-transform", type: "transformer", label: "AI transform" },
  { name: "rss", type: "distributor", label: "RSS" },
  { name: "telegram", type: "distributor", label: "Telegram" },
  { name: "discord", type: "distributor", label: "Discord" },
  { name: "notion", type: "distributor", label: "Notion" },
  { name: "supabase", type: "distributor", label: "Supabase" },
  { name: "near-social", type: "distributor", label: "NEAR Social" },
  { name: "crosspost", type: "distributor", label: "Crosspost" },
  { name: "webhook", type: "distributor", label: "Webhook" },
  { name: "email", type: "distributor", label: "Email newsletter" },
  { name: "activitypub", type: "distributor", label: "Fediverse (ActivityPub)" },
  {
    name: "x-source",
    type: "source",
    label: "X (Twitter)",
    aliases: [
      "@curate/twitter-source",
      "@curatedotfun/twitter-source",
      "@curatedotfun/twitter",
      "twitter",
      "x",
    ],
  },
  { name: "bluesky-source", type: "source", label: "Bluesky search", aliases: ["bluesky"] },
  { name: "mastodon-source", type: "source", label: "Mastodon hashtag", aliases: ["mastodon"] },
  { name: "rss-source", type: "source", label: "RSS, Atom or JSON Feed", aliases: ["rss-feed"] },
  { name: "test-source", type: "source", label: "Test posts", aliases: ["test"] },
] as const satisfies readonly BuiltinPlugin[];

export type BuiltinPluginName = (typeof BUILTIN_PLUGINS)[number]["name"];
type BuiltinOfType<T extends PluginType> = Extract<(typeof BUILTIN_PLUGINS)[number], { type: T }>["name"];
/** The built-in sources: tables keyed by it (the server's search sources) miss none, or do not compile. */
export type SourcePluginName = BuiltinOfType<"source">;
/** The built-in distributors: tables keyed by it miss none, or do not compile. */
export type DistributorPluginName = BuiltinOfType<"distributor">;

export function isSourcePluginName(name: string | null): name is SourcePluginName {
  return BUILTIN_PLUGINS.some((plugin) => plugin.name === name && plugin.type === "source");
}

export function isDistributorPluginName(name: string | null): name is DistributorPluginName {
  return BUILTIN_PLUGINS.some((plugin) => plugin.name === name && plugin.type === "distributor");
}

export const BUILTIN_PLUGIN_PREFIX = "@curate/";
const LEGACY_PLUGIN_PREFIX = "@curatedotfun/";
/** Scopes no registered plugin may use: the built-ins' own and the reference product's. */
export const RESERVED_PLUGIN_SCOPES = ["curate", "curatedotfun"] as const;

/** The canonical full name of a built-in plugin: `@curate/<name>`. */
export function builtinPluginId(name: BuiltinPluginName): string {
  return `${BUILTIN_PLUGIN_PREFIX}${name}`;
}

const BY_ALIAS: ReadonlyMap<string, BuiltinPlugin> = new Map(
  (BUILTIN_PLUGINS as readonly BuiltinPlugin[]).flatMap((plugin) =>
    [
      plugin.name,
      `${BUILTIN_PLUGIN_PREFIX}${plugin.name}`,
      `${LEGACY_PLUGIN_PREFIX}${plugin.name}`,
      ...(plugin.aliases ?? []),
    ].map((alias) => [alias.toLowerCase(), plugin] as const),
  ),
);

/**
 * The built-in plugin a config's plugin name means (its short name or any alias, case-insensitively), or null.
 * Whatever answers here is a built-in and never a registered plugin: resolution asks this first.
 */
export function findBuiltinPlugin(plugin: string): BuiltinPlugin | null {
  return BY_ALIAS.get(plugin.trim().toLowerCase()) ?? null;
}

/** The built-in short name of a plugin (`@curatedotfun/rss`, `rss` → `rss`), or null for third-party plugins. */
export function builtinPluginName(plugin: string): BuiltinPluginName | null {
  return (findBuiltinPlugin(plugin)?.name as BuiltinPluginName | undefined) ?? null;
}

/** The name a config's plugin is stored and shown under: `@curate/<name>` for built-ins, else as written. */
export function canonicalPluginName(plugin: string): string {
  const builtin = findBuiltinPlugin(plugin);
  return builtin ? `${BUILTIN_PLUGIN_PREFIX}${builtin.name}` : plugin.trim();
}

/** Full names of the built-ins the create wizard writes. */
export const PLUGINS = {
  objectTransform: "@curate/object-transform",
  aiTransform: "@curate/ai-transform",
  rss: "@curate/rss",
  telegram: "@curate/telegram",
} as const;
