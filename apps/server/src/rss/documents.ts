import { XMLBuilder } from "fast-xml-parser";
import { Feed } from "feed";
import { cleanText } from "../sources/safe-text.ts";
import type { RssItemInput } from "./items.ts";
import { bodyAsHtml, textAsHtml } from "./text.ts";

/** A stored item as the documents read it: what the RSS distributor stored. */
export type RssDocumentItem = RssItemInput;

/** What a feed's documents say about the feed itself, and where its files are. */
export interface RssChannel {
  feedId: string;
  title: string;
  description: string;
  /** The feed's page. */
  siteUrl: string;
  image: string | null;
  /** `{base}/{feedId}`: the folder of its rss.xml, atom.xml and feed.json. */
  filesUrl: string;
  updated: Date;
}

export type RssFormat = "rss" | "atom" | "json";

export const CONTENT_TYPES = {
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
  json: "application/feed+json; charset=utf-8",
  opml: "text/x-opml; charset=utf-8",
  xml: "application/xml; charset=utf-8",
} as const;

/** A document carries at most this much of an item's body: the rest is on the item's page. */
const MAX_CONTENT_CHARS = 20_000;

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  avif: "image/avif",
};

/** An image's type from its address (`.png`, `?format=png`); JPEG when it does not say. */
function imageType(url: string): string {
  let ext = "";
  try {
    const parsed = new URL(url);
    ext =
      parsed.searchParams.get("format") ?? /\.([a-z0-9]+)$/i.exec(parsed.pathname)?.[1]?.toLowerCase() ?? "";
  } catch {
    // Stored images are checked URLs; a malformed one still gets the default type.
  }
  return IMAGE_TYPES[ext.toLowerCase()] ?? "image/jpeg";
}

/**
 * A stable IRI for an item: its guid when that is a URL, else a URN made from the feed and the guid (Atom ids and
 * JSON Feed ids must be unique and never change).
 */
function itemId(feedId: string, guid: string): string {
  if (/^https?:\/\//i.test(guid)) return cleanText(guid);
  return `urn:curate:${encodeURIComponent(feedId)}:${encodeURIComponent(cleanText(guid))}`;
}

/**
 * A category as a plain word: Atom carries it in an attribute, where the `feed` package leaves `<` as it is (which
 * no XML parser accepts), so angle brackets go.
 */
const categoryName = (name: string) => cleanText(name).replace(/[<>]/g, "");

function itemTitle(item: RssDocumentItem): string {
  return item.title ?? item.description?.split("\n")[0]?.slice(0, 200) ?? "Untitled";
}

/** RSS 2.0 or Atom 1.0 through the `feed` package; every text goes in cleaned and escaped as HTML. */
export function xmlDocument(format: "rss" | "atom", channel: RssChannel, items: RssDocumentItem[]): string {
  const feed = new Feed({
    id: channel.siteUrl,
    title: cleanText(channel.title),
    description: cleanText(channel.description),
    link: channel.siteUrl,
    image: channel.image ?? undefined,
    updated: channel.updated,
    generator: "Curate",
    copyright: "",
    feedLinks: {
      rss: `${channel.filesUrl}/rss.xml`,
      atom: `${channel.filesUrl}/atom.xml`,
      json: `${channel.filesUrl}/feed.json`,
    },
  });
  for (const item of items) {
    const link = item.link ?? item.sourceUrl ?? channel.siteUrl;
    feed.addItem({
      id: itemId(channel.feedId, item.guid),
      guid: cleanText(item.guid),
      title: textAsHtml(itemTitle(item)),
      link,
      date: item.pubDate,
      published: item.pubDate,
      description: item.description ? textAsHtml(item.description) : undefined,
      content: item.content ? bodyAsHtml(item.content.slice(0, MAX_CONTENT_CHARS)) : undefined,
      image: item.image ? { url: item.image, type: imageType(item.image), length: 0 } : undefined,
      category: item.categories.map((name) => ({ name: categoryName(name) })),
      author: item.author ? [{ name: cleanText(item.author) }] : undefined,
    });
  }
  return format === "rss" ? feed.rss2() : feed.atom1();
}

/** JSON Feed 1.1; the curation metadata is in each item's `_curate` extension object. */
export function jsonFeedDocument(channel: RssChannel, items: RssDocumentItem[]): string {
  const text = (value: string | null) => (value === null ? undefined : cleanText(value));
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: cleanText(channel.title),
    home_page_url: channel.siteUrl,
    feed_url: `${channel.filesUrl}/feed.json`,
    description: text(channel.description || null),
    icon: channel.image ?? undefined,
    items: items.map((item) => {
      const body = item.content?.slice(0, MAX_CONTENT_CHARS) ?? null;
      return {
        id: itemId(channel.feedId, item.guid),
        url: item.link ?? undefined,
        title: cleanText(itemTitle(item)),
        content_text: cleanText(body ?? item.description ?? ""),
        content_html: body ? bodyAsHtml(body) : undefined,
        summary: text(item.description),
        image: item.image ?? undefined,
        date_published: item.pubDate.toISOString(),
        authors: item.author ? [{ name: cleanText(item.author) }] : undefined,
        tags: item.categories.length ? item.categories.map(cleanText) : undefined,
        _curate: {
          guid: cleanText(item.guid),
          platform: item.platform ?? "other",
          curator: text(item.curator) ?? null,
          approver: text(item.approver) ?? null,
          curatorNote: text(item.curatorNote) ?? null,
          sourceUrl: item.sourceUrl,
        },
      };
    }),
  });
}

const xml = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressEmptyNode: true,
});

export interface OpmlEntry {
  title: string;
  description: string;
  xmlUrl: string;
  htmlUrl: string;
}

/** OPML 2.0 listing feeds' RSS files, for a reader to subscribe to them all at once. */
export function opmlDocument(title: string, entries: OpmlEntry[], created: Date): string {
  return xml.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    opml: {
      "@_version": "2.0",
      head: { title: cleanText(title), dateCreated: created.toUTCString() },
      body: {
        outline: entries.map((entry) => ({
          "@_type": "rss",
          "@_text": cleanText(entry.title),
          "@_title": cleanText(entry.title),
          "@_description": cleanText(entry.description),
          "@_xmlUrl": entry.xmlUrl,
          "@_htmlUrl": entry.htmlUrl,
        })),
      },
    },
  });
}

/** The XML routes' answer to anything that is not there: a small XML document, never the app's HTML. */
export function xmlError(status: number, message: string): string {
  return xml.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    error: { status, message: cleanText(message) },
  });
}
