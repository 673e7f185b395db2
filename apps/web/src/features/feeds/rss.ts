// The reads of a feed's published RSS file (its RSS distributor's output, not the API). They stay out of ./api:
// that module is in the first load of "/", and the XML parsing is only needed on a feed's page.
import { builtinPluginName, type RssPlatform, recapList, rssPlatformOf } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { siteFetch } from "#web/lib/api";

export const RSS_FETCH_FAILED = "Failed to fetch RSS feed";
export const RSS_INVALID_XML = "Invalid XML format";
export const RSS_INVALID_FEED = "Invalid RSS feed format";

export const RSS_STALE_MS = 5 * 60_000;
export const RSS_RETRIES = 2;

export interface RssItem {
  title: string;
  /** An http(s) address, or null when the item has none (or one that is not safe to link to). */
  link: string | null;
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

/** What the app knows of this deployment (GET /api/config): its own address and the RSS hosts it may read. */
export interface RssSettings {
  publicUrl: string;
  rssHosts: readonly string[];
}

/**
 * The RSS service URL of the feed's RSS distributor: its `serviceUrl`, or this deployment's own `{PUBLIC_URL}/rss`
 * when the config leaves it out (as the server publishes). Only a usable http(s) URL on a host this deployment
 * reads RSS from (its own, or the operator's RSS_ALLOWED_HOSTS) counts: a feed's config never makes visitors'
 * browsers call a host of its owner's choosing.
 */
export function rssServiceUrl(
  distributors: readonly DistributorLike[] | undefined,
  settings: RssSettings,
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
  settings: RssSettings,
): string | null {
  const outputs = feed.config.outputs;
  const recaps = recapList(outputs?.recap) as Array<{ distribute?: readonly DistributorLike[] }>;
  for (const distribute of [outputs?.stream?.distribute, ...recaps.map((recap) => recap.distribute)]) {
    const service = rssServiceUrl(distribute, settings);
    if (service) return rssFileUrl(service, feed.id);
  }
  return null;
}

const MEDIA_NS = "http://search.yahoo.com/mrss/";

/** A feed file is read whole in the browser: past these sizes the rest is left out, never the page frozen. */
export const RSS_MAX_ITEMS = 1000;
const MAX_TITLE = 500;
const MAX_DESCRIPTION = 2000;
const MAX_CATEGORIES = 20;
const MAX_CATEGORY = 100;

/** A direct child without a namespace (RSS 2.0's own elements), so `atom:link` or `media:title` never stand in. */
function child(parent: Element, name: string): Element | undefined {
  return Array.from(parent.children).find((element) => element.localName === name && !element.namespaceURI);
}

const childText = (parent: Element, name: string) => child(parent, name)?.textContent?.trim() ?? "";

/** Only http(s) addresses become links or images: a `javascript:` or `data:` URL in a feed stays inert. */
function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Text with its whitespace collapsed, cut to `max`. */
const oneLine = (text: string, max: number) => text.replace(/\s+/g, " ").trim().slice(0, max);

/**
 * RSS descriptions are HTML (escaped in the XML): read as plain text through an inert HTML document (DOMParser
 * runs no scripts and loads nothing), with whitespace collapsed.
 */
function htmlText(value: string, max: number): string {
  if (!value) return "";
  const text = /[<&]/.test(value)
    ? (new DOMParser().parseFromString(value, "text/html").body.textContent ?? "")
    : value;
  return oneLine(text, max);
}

function imageOf(item: Element): string | null {
  const enclosure = Array.from(item.children).find(
    (element) =>
      element.localName === "enclosure" && (element.getAttribute("type") ?? "").startsWith("image/"),
  );
  const media =
    item.getElementsByTagNameNS(MEDIA_NS, "content")[0] ??
    item.getElementsByTagNameNS(MEDIA_NS, "thumbnail")[0];
  return httpUrl(enclosure?.getAttribute("url")) ?? httpUrl(media?.getAttribute("url"));
}

function dateOf(value: string): string | null {
  return value && !Number.isNaN(Date.parse(value)) ? value : null;
}

function categoriesOf(item: Element): string[] {
  const names = Array.from(item.children)
    .filter((element) => element.localName === "category" && !element.namespaceURI)
    .map((category) => oneLine(category.textContent ?? "", MAX_CATEGORY))
    .filter(Boolean);
  return [...new Set(names)].slice(0, MAX_CATEGORIES);
}

/** Reads an RSS 2.0 document; throws the spec's texts for a document that is not XML or not RSS. */
export function parseRss(xml: string): RssItem[] {
  const document = new DOMParser().parseFromString(xml, "application/xml");
  if (document.getElementsByTagName("parsererror").length > 0) throw new Error(RSS_INVALID_XML);
  const root = document.documentElement;
  const channel = root.localName === "rss" && !root.namespaceURI ? child(root, "channel") : undefined;
  if (!channel) throw new Error(RSS_INVALID_FEED);
  const seen = new Set<string>();
  return Array.from(channel.children)
    .filter((element) => element.localName === "item" && !element.namespaceURI)
    .slice(0, RSS_MAX_ITEMS)
    .map((item, index): RssItem => {
      const link = httpUrl(childText(item, "link"));
      return {
        // Titles and categories are plain text, as feeds publish them (this server's among them): `Vec<T>` and
        // `Q&amp;A` show as written.
        title: oneLine(childText(item, "title"), MAX_TITLE),
        link,
        description: htmlText(childText(item, "description"), MAX_DESCRIPTION),
        pubDate: dateOf(childText(item, "pubDate")),
        // Keys of the list: the guid, else the link, else the place in the file.
        guid: childText(item, "guid") || link || `item-${index}`,
        image: imageOf(item),
        platform: rssPlatformOf(link),
        categories: categoriesOf(item),
      };
    })
    .filter((item) => !seen.has(item.guid) && Boolean(seen.add(item.guid)));
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
        // The query's own 5-minute cache is the policy; the browser revalidates its copy (a cheap 304 by ETag)
        // so a reload after an approval does not show a file up to five minutes older still.
        response = await siteFetch(url, {
          signal,
          cache: "no-cache",
          headers: { accept: "application/rss+xml, application/xml" },
        });
      } catch {
        throw new Error(RSS_FETCH_FAILED);
      }
      if (!response.ok) throw new Error(RSS_FETCH_FAILED);
      return parseRss(await response.text());
    },
    staleTime: RSS_STALE_MS,
    retry: RSS_RETRIES,
  });
