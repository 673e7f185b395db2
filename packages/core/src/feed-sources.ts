import { PLATFORM_LABELS, type Platform, siteName } from "./platforms.ts";
import { builtinPluginName } from "./plugins.ts";

/** One "Curating from" badge of a feed page: a configured source, named by where it reads. */
export interface FeedSource {
  /** The network it reads, for its mark; null for test posts and plugins this server does not know. */
  network: Platform | null;
  label: string;
  /** The site a feed document comes from; null for network searches. */
  href: string | null;
}

interface SourceLike {
  plugin: string;
  search?: ReadonlyArray<{ url?: string; query?: string }>;
}

const NETWORK_SOURCES: Record<string, Platform> = {
  "x-source": "twitter",
  "bluesky-source": "bluesky",
  "mastodon-source": "mastodon",
};

/** An RSS source names each site it reads (its searches' `url`, else `query`), by host, linking to the site. */
function documentSources(source: SourceLike): FeedSource[] {
  const addresses = (source.search ?? []).map((search) => search.url ?? search.query ?? "");
  const sites = addresses.flatMap((address) => {
    const name = siteName(address.trim());
    return name ? [{ network: "rss" as const, label: name, href: new URL(address.trim()).origin }] : [];
  });
  return sites.length ? sites : [{ network: "rss", label: "RSS feed", href: null }];
}

/**
 * What a feed reads by itself, in config order and each named once: "X (Twitter)", "Mastodon", the blogs' sites.
 * Posts people submit by mentioning the bot come on top of these (the networks the bot listens on).
 */
export function feedSources(sources: readonly SourceLike[] | undefined): FeedSource[] {
  const all = (sources ?? []).flatMap((source): FeedSource[] => {
    const name = builtinPluginName(source.plugin);
    if (name && name in NETWORK_SOURCES) {
      const network = NETWORK_SOURCES[name];
      return [
        { network, label: network === "twitter" ? "X (Twitter)" : PLATFORM_LABELS[network], href: null },
      ];
    }
    if (name === "rss-source") return documentSources(source);
    if (name === "test-source") return [{ network: null, label: "Test posts", href: null }];
    return [{ network: null, label: source.plugin, href: null }];
  });
  const byLabel = new Map<string, FeedSource>();
  for (const source of all) if (!byLabel.has(source.label)) byLabel.set(source.label, source);
  return [...byLabel.values()];
}
