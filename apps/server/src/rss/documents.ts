import type { RssReaderItem } from "@curate/core";
import { XMLBuilder } from "fast-xml-parser";
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
 * An item as every reader lists it, whatever the format, each text plain and as written. The documents are written
 * from it and a channel preview shows it, so a preview is what a send publishes. `fallbackLink` is where an item
 * without a link of its own points: the feed's page.
 */
export function rssReaderItem(feedId: string, item: RssDocumentItem, fallbackLink: string): RssReaderItem {
  const text = (value: string | null) => (value === null ? null : cleanText(value));
  return {
    id: itemId(feedId, item.guid),
    guid: cleanText(item.guid),
    title: cleanText(item.title ?? item.description?.split("\n")[0]?.slice(0, 200) ?? "Untitled"),
    link: item.link ?? item.sourceUrl ?? fallbackLink,
    published: new Date(item.pubDate).toISOString(),
    author: text(item.author),
    summary: text(item.description),
    content: text(item.content?.slice(0, MAX_CONTENT_CHARS) ?? null),
    image: item.image,
    categories: item.categories.map(cleanText),
  };
}

const RSS_NAMESPACES = {
  "@_xmlns:atom": "http://www.w3.org/2005/Atom",
  "@_xmlns:content": "http://purl.org/rss/1.0/modules/content/",
  "@_xmlns:dc": "http://purl.org/dc/elements/1.1/",
};

/**
 * RSS 2.0 or Atom 1.0. Every text is written escaped once, as the element expects it: titles, names and categories
 * as plain text (Atom says `type="text"`), descriptions and bodies as HTML (escaped text in paragraphs), so every
 * reader shows what was written. An item's author is a name, which RSS's `<author>` (an e-mail address) cannot
 * hold: it is the item's `dc:creator`.
 */
export function xmlDocument(format: "rss" | "atom", channel: RssChannel, items: RssDocumentItem[]): string {
  const read = items.map((item) => rssReaderItem(channel.feedId, item, channel.siteUrl));
  const document = format === "rss" ? rssDocument(channel, read) : atomDocument(channel, read);
  return xml.build({ "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" }, ...document });
}

function rssDocument(channel: RssChannel, items: RssReaderItem[]) {
  const title = cleanText(channel.title);
  return {
    rss: {
      "@_version": "2.0",
      ...RSS_NAMESPACES,
      channel: {
        title,
        link: channel.siteUrl,
        description: cleanText(channel.description),
        lastBuildDate: channel.updated.toUTCString(),
        docs: "https://www.rssboard.org/rss-specification",
        generator: "Curate",
        ...(channel.image ? { image: { url: channel.image, title, link: channel.siteUrl } } : {}),
        "atom:link": {
          "@_href": `${channel.filesUrl}/rss.xml`,
          "@_rel": "self",
          "@_type": CONTENT_TYPES.rss.split(";")[0],
        },
        item: items.map((item) => ({
          title: item.title,
          link: item.link,
          guid: { "#text": item.guid, "@_isPermaLink": "false" },
          pubDate: new Date(item.published).toUTCString(),
          ...(item.summary ? { description: textAsHtml(item.summary) } : {}),
          ...(item.content ? { "content:encoded": bodyAsHtml(item.content) } : {}),
          ...(item.author ? { "dc:creator": item.author } : {}),
          ...(item.categories.length ? { category: item.categories } : {}),
          ...(item.image
            ? { enclosure: { "@_url": item.image, "@_length": "0", "@_type": imageType(item.image) } }
            : {}),
        })),
      },
    },
  };
}

function atomDocument(channel: RssChannel, items: RssReaderItem[]) {
  const plain = (value: string) => ({ "#text": value, "@_type": "text" });
  const html = (value: string) => ({ "#text": value, "@_type": "html" });
  return {
    feed: {
      "@_xmlns": "http://www.w3.org/2005/Atom",
      id: channel.siteUrl,
      title: plain(cleanText(channel.title)),
      ...(channel.description ? { subtitle: plain(cleanText(channel.description)) } : {}),
      updated: channel.updated.toISOString(),
      generator: "Curate",
      link: [
        { "@_rel": "alternate", "@_href": channel.siteUrl },
        { "@_rel": "self", "@_href": `${channel.filesUrl}/atom.xml` },
      ],
      ...(channel.image ? { logo: channel.image } : {}),
      entry: items.map((item) => ({
        id: item.id,
        title: plain(item.title),
        link: [
          { "@_rel": "alternate", "@_href": item.link },
          ...(item.image
            ? [
                {
                  "@_rel": "enclosure",
                  "@_href": item.image,
                  "@_type": imageType(item.image),
                  "@_length": "0",
                },
              ]
            : []),
        ],
        published: item.published,
        updated: item.published,
        ...(item.author ? { author: { name: item.author } } : {}),
        ...(item.summary ? { summary: html(textAsHtml(item.summary)) } : {}),
        ...(item.content ? { content: html(bodyAsHtml(item.content)) } : {}),
        ...(item.categories.length
          ? { category: item.categories.map((name) => ({ "@_term": name, "@_label": name })) }
          : {}),
      })),
    },
  };
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
    items: items.map((stored) => {
      const item = rssReaderItem(channel.feedId, stored, channel.siteUrl);
      return {
        id: item.id,
        url: stored.link ?? undefined,
        title: item.title,
        content_text: item.content ?? item.summary ?? "",
        content_html: item.content ? bodyAsHtml(item.content) : undefined,
        summary: item.summary ?? undefined,
        image: item.image ?? undefined,
        date_published: item.published,
        authors: item.author ? [{ name: item.author }] : undefined,
        tags: item.categories.length ? item.categories : undefined,
        _curate: {
          guid: item.guid,
          platform: stored.platform ?? "other",
          curator: text(stored.curator) ?? null,
          approver: text(stored.approver) ?? null,
          curatorNote: text(stored.curatorNote) ?? null,
          sourceUrl: stored.sourceUrl,
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
