import { type DestinationOptions, DISTRIBUTORS, trimAscii } from "./distributors.ts";
import { builtinPluginId, builtinPluginName, isDistributorPluginName } from "./plugins.ts";

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

/** The destination of each distributor, in config order; unknown plugins get a label and no link. */
export function feedDestinations(
  distributors: readonly DistributorLike[] | undefined,
  feedId: string,
  options: DestinationOptions = {},
): Destination[] {
  return (distributors ?? []).map((distributor) => {
    const name = builtinPluginName(distributor.plugin);
    if (!isDistributorPluginName(name))
      return { kind: distributor.plugin, label: distributor.plugin, href: null };
    const known = DISTRIBUTORS[name];
    return { kind: name, label: known.label, href: known.link(distributor.config ?? {}, feedId, options) };
  });
}

// --- Branch keys: which publication a re-run edits (decision 0025). ---

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
    const target = isDistributorPluginName(name) ? DISTRIBUTORS[name].branchTarget : undefined;
    const base = [plugin, ...(target ? target(distributor.config ?? {}) : [])].join("|");
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}#${count}`;
  });
}
