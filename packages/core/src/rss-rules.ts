import { builtinPluginName } from "./plugins.ts";
import { recapList } from "./recap-rules.ts";

/**
 * An RSS item's platform, judged by its link: the platforms the spec names, with the networks Curate also reads posts
 * from (issue 18) before the catch-all "other".
 */
export const RSS_PLATFORMS = [
  "twitter",
  "youtube",
  "github",
  "reddit",
  "bluesky",
  "mastodon",
  "telegram",
  "other",
] as const;
export type RssPlatform = (typeof RSS_PLATFORMS)[number];

export function isRssPlatform(value: unknown): value is RssPlatform {
  return typeof value === "string" && (RSS_PLATFORMS as readonly string[]).includes(value);
}

/** Where an item comes from, judged by the host of its link; anything unreadable is "other". */
export function rssPlatformOf(link: string | null | undefined): RssPlatform {
  if (!link) return "other";
  let host: string;
  let path: string;
  try {
    const url = new URL(link);
    host = url.hostname.replace(/^www\./, "");
    path = url.pathname;
  } catch {
    return "other";
  }
  if (host === "x.com" || host === "twitter.com" || host.endsWith(".twitter.com")) return "twitter";
  if (host === "youtube.com" || host === "youtu.be" || host.endsWith(".youtube.com")) return "youtube";
  if (host === "github.com" || host.endsWith(".github.com") || host.endsWith(".github.io")) return "github";
  if (host === "reddit.com" || host.endsWith(".reddit.com") || host === "redd.it") return "reddit";
  if (host === "bsky.app") return "bluesky";
  if (host === "t.me" || host === "telegram.me") return "telegram";
  // Mastodon lives on any host; its statuses' addresses have one shape: /@user/<numeric id>.
  if (/^\/@[^/]+\/\d+\/?$/.test(path)) return "mastodon";
  return "other";
}

/** What a deployment lets a feed page read RSS from (GET /api/config): its own address and the operator's hosts. */
export interface RssReadSettings {
  publicUrl: string;
  rssHosts: readonly string[];
}

interface DistributorLike {
  plugin: string;
  config?: Record<string, unknown>;
}

/**
 * The RSS service URL of the feed's RSS distributor: its `serviceUrl`, or this deployment's own `{PUBLIC_URL}/rss`
 * when the config leaves it out (as the server publishes). Only a usable http(s) URL on a host this deployment
 * reads RSS from (its own, or the operator's RSS_ALLOWED_HOSTS) counts: a feed's config never makes the server
 * read a host of its owner's choosing.
 */
export function rssServiceUrl(
  distributors: readonly DistributorLike[] | undefined,
  settings: RssReadSettings,
): string | null {
  const rss = distributors?.find((distributor) => builtinPluginName(distributor.plugin) === "rss");
  if (!rss) return null;
  const configured = rss.config?.serviceUrl;
  const url =
    configured === undefined || configured === null || configured === ""
      ? `${settings.publicUrl.replace(/\/+$/, "")}/rss`
      : configured;
  if (typeof url !== "string" || !url.trim() || url.includes("{{")) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  if (!settings.rssHosts.some((host) => host.toLowerCase() === parsed.host.toLowerCase())) return null;
  return url.trim().replace(/\/+$/, "");
}

export function rssFileUrl(serviceUrl: string, feedId: string): string {
  return `${serviceUrl}/${encodeURIComponent(feedId)}/rss.xml`;
}

interface OutputsLike {
  stream?: { distribute?: readonly DistributorLike[] };
  recap?: unknown;
}

/**
 * The address of the feed's RSS file, or null when it has no RSS output this deployment may read: the stream's, else
 * a recap's (a feed may publish only its digests to RSS).
 */
export function feedRssFileUrl(
  feed: { id: string; config: { outputs?: OutputsLike } },
  settings: RssReadSettings,
): string | null {
  const outputs = feed.config.outputs;
  const recaps = recapList(outputs?.recap) as Array<{ distribute?: readonly DistributorLike[] }>;
  for (const distribute of [outputs?.stream?.distribute, ...recaps.map((recap) => recap.distribute)]) {
    const service = rssServiceUrl(distribute, settings);
    if (service) return rssFileUrl(service, feed.id);
  }
  return null;
}
