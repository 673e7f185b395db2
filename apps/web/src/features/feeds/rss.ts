// The reads of a feed's published RSS file (its RSS distributor's output, not the API). They stay out of ./api:
// that module is in the first load of "/", and the XML parsing is only needed on a feed's page.
import { builtinPluginName } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";

export const RSS_FETCH_FAILED = "Failed to fetch RSS feed";
export const RSS_INVALID_XML = "Invalid XML format";
export const RSS_INVALID_FEED = "Invalid RSS feed format";

export const RSS_STALE_MS = 5 * 60_000;
export const RSS_RETRIES = 2;

export const RSS_PLATFORMS = ["twitter", "youtube", "github", "reddit", "other"] as const;
export type RssPlatform = (typeof RSS_PLATFORMS)[number];

export interface RssItem {
  title: string;
  link: string;
  description: string;
  pubDate: string | null;
  guid: string;
  image: string | null;
  platform: RssPlatform;
  categories: string[];
}

interface DistributorLike {
  plugin: string;
  config?: Record<string, unknown>;
}

/**
 * The RSS service URL of the feed's RSS distributor, when it has one with a usable http(s) URL on a host this
 * deployment reads RSS from (its own, or the operator's RSS_ALLOWED_HOSTS): a feed's config never makes visitors'
 * browsers call a host of its owner's choosing.
 */
export function rssServiceUrl(
  distributors: readonly DistributorLike[] | undefined,
  allowedHosts: readonly string[],
): string | null {
  const rss = distributors?.find((distributor) => builtinPluginName(distributor.plugin) === "rss");
  const url = rss?.config?.serviceUrl;
  if (typeof url !== "string" || !url.trim() || url.includes("{{")) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  if (!allowedHosts.some((host) => host.toLowerCase() === parsed.host.toLowerCase())) return null;
  return url.trim().replace(/\/+$/, "");
}

export function rssFileUrl(serviceUrl: string, feedId: string): string {
  return `${serviceUrl}/${encodeURIComponent(feedId)}/rss.xml`;
}

/** Where an item comes from, judged by the host of its link. */
export function platformOf(link: string): RssPlatform {
  let host: string;
  try {
    host = new URL(link).hostname.replace(/^www\./, "");
  } catch {
    return "other";
  }
  if (host === "x.com" || host === "twitter.com" || host.endsWith(".twitter.com")) return "twitter";
  if (host === "youtube.com" || host === "youtu.be" || host.endsWith(".youtube.com")) return "youtube";
  if (host === "github.com" || host.endsWith(".github.com") || host.endsWith(".github.io")) return "github";
  if (host === "reddit.com" || host.endsWith(".reddit.com") || host === "redd.it") return "reddit";
  return "other";
}

const MEDIA_NS = "http://search.yahoo.com/mrss/";

function childText(parent: Element, tag: string): string {
  return parent.getElementsByTagName(tag)[0]?.textContent?.trim() ?? "";
}

function imageOf(item: Element): string | null {
  const enclosure = Array.from(item.getElementsByTagName("enclosure")).find((element) =>
    (element.getAttribute("type") ?? "").startsWith("image/"),
  );
  const media =
    item.getElementsByTagNameNS(MEDIA_NS, "content")[0] ??
    item.getElementsByTagNameNS(MEDIA_NS, "thumbnail")[0];
  return enclosure?.getAttribute("url") || media?.getAttribute("url") || null;
}

/** Reads an RSS 2.0 document; throws the spec's texts for a document that is not XML or not RSS. */
export function parseRss(xml: string): RssItem[] {
  const document = new DOMParser().parseFromString(xml, "application/xml");
  if (document.getElementsByTagName("parsererror").length > 0) throw new Error(RSS_INVALID_XML);
  const channel =
    document.documentElement.nodeName === "rss" ? document.getElementsByTagName("channel")[0] : null;
  if (!channel) throw new Error(RSS_INVALID_FEED);
  return Array.from(channel.getElementsByTagName("item")).map((item) => {
    const link = childText(item, "link");
    const pubDate = childText(item, "pubDate");
    return {
      title: childText(item, "title"),
      link,
      description: childText(item, "description"),
      pubDate: pubDate || null,
      guid: childText(item, "guid") || link,
      image: imageOf(item),
      platform: platformOf(link),
      categories: Array.from(item.getElementsByTagName("category"))
        .map((category) => category.textContent?.trim() ?? "")
        .filter(Boolean),
    };
  });
}

const time = (item: RssItem) => {
  const parsed = item.pubDate ? Date.parse(item.pubDate) : Number.NaN;
  return Number.isNaN(parsed) ? 0 : parsed;
};

/** The `count` newest items, newest first; undated items go last. */
export function newestItems(items: readonly RssItem[], count: number): RssItem[] {
  return [...items].sort((a, b) => time(b) - time(a)).slice(0, count);
}

export const rssKeys = {
  all: ["rss"] as const,
  feed: (url: string) => [...rssKeys.all, url] as const,
};

export const rssQueryOptions = (url: string) =>
  queryOptions({
    queryKey: rssKeys.feed(url),
    queryFn: async ({ signal }) => {
      let response: Response;
      try {
        response = await fetch(url, { signal, headers: { accept: "application/rss+xml, application/xml" } });
      } catch {
        throw new Error(RSS_FETCH_FAILED);
      }
      if (!response.ok) throw new Error(RSS_FETCH_FAILED);
      return parseRss(await response.text());
    },
    staleTime: RSS_STALE_MS,
    retry: RSS_RETRIES,
  });
