import { type FeedRecentItem, RSS_RECENT_MAX_ITEMS, type RssReadProblem, rssPlatformOf } from "@curate/core";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { htmlToText } from "../sources/html-text.ts";
import { cleanText } from "../sources/safe-text.ts";

/** An RSS file that gave no items, and why. */
export class RssReadError extends Error {
  readonly problem: RssReadProblem;
  override name = "RssReadError";
  constructor(problem: RssReadProblem) {
    super(problem);
    this.problem = problem;
  }
}

const MAX_TITLE = 500;
const MAX_DESCRIPTION = 2000;
const MAX_CATEGORIES = 20;
const MAX_CATEGORY = 100;
const MAX_GUID = 500;
const MAX_URL = 2000;

/** Elements that may repeat: read as lists whether a file has one or several. */
const REPEATED = new Set(["item", "category", "enclosure", "media:content", "media:thumbnail"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  // Every value stays text: a title "1e3" or "0123" is not a number.
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An element's text: its content, a CDATA section's included, whether or not it carries attributes. */
function textOf(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === "string") return first;
  if (isNode(first) && typeof first["#text"] === "string") return first["#text"];
  return "";
}

function attribute(value: unknown, name: string): string | null {
  return isNode(value) && typeof value[`@_${name}`] === "string" ? (value[`@_${name}`] as string) : null;
}

const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

/** Text with control characters dropped and whitespace collapsed, cut to `max`. */
const oneLine = (text: string, max: number) => cleanText(text).replace(/\s+/g, " ").trim().slice(0, max);

/** Only http(s) addresses become links or images: a `javascript:` or `data:` URL in a file stays inert. */
function httpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return (url.protocol === "https:" || url.protocol === "http:") && url.href.length <= MAX_URL
      ? url.href
      : null;
  } catch {
    return null;
  }
}

function imageOf(item: Node): string | null {
  const enclosure = list(item.enclosure).find((entry) =>
    (attribute(entry, "type") ?? "").startsWith("image/"),
  );
  const media = [...list(item["media:content"]), ...list(item["media:thumbnail"])][0];
  return httpUrl(attribute(enclosure, "url")) ?? httpUrl(attribute(media, "url"));
}

function categoriesOf(item: Node): string[] {
  const names = list(item.category)
    .map((category) => oneLine(textOf(category), MAX_CATEGORY))
    .filter(Boolean);
  return [...new Set(names)].slice(0, MAX_CATEGORIES);
}

function itemOf(item: Node, index: number): FeedRecentItem {
  const link = httpUrl(textOf(item.link).trim());
  const date = textOf(item.pubDate).trim();
  return {
    // Titles and categories are plain text, as feeds publish them: `Vec<T>` and `Q&A` show as written.
    title: oneLine(textOf(item.title), MAX_TITLE),
    link,
    // Descriptions are HTML (escaped in the XML), read as a reader sees them: scripts and markup leave no text.
    description: oneLine(htmlToText(textOf(item.description)).text, MAX_DESCRIPTION),
    pubDate: date && date.length <= 100 && !Number.isNaN(Date.parse(date)) ? date : null,
    // Keys of the list: the guid, else the link, else the place in the file.
    guid: oneLine(textOf(item.guid), MAX_GUID) || link || `item-${index}`,
    image: imageOf(item),
    platform: rssPlatformOf(link),
    categories: categoriesOf(item),
  };
}

/**
 * The items of an RSS 2.0 document, each guid once, at most RSS_RECENT_MAX_ITEMS. Throws RssReadError: `invalid-xml`
 * for a document that is not well-formed XML, `invalid-feed` for XML whose root is not `<rss>` with a `<channel>`.
 * Only RSS's own elements count (`atom:link` or `media:title` never stand in for `link` or `title`).
 */
export function readRecentItems(xml: string): FeedRecentItem[] {
  if (!xml.trim() || XMLValidator.validate(xml) !== true) throw new RssReadError("invalid-xml");
  let document: unknown;
  try {
    document = parser.parse(xml);
  } catch {
    throw new RssReadError("invalid-xml");
  }
  const rss = isNode(document) ? document.rss : undefined;
  if (!isNode(rss) || rss.channel === undefined || Array.isArray(rss.channel)) {
    throw new RssReadError("invalid-feed");
  }
  // An empty `<channel/>` reads as text: a feed with nothing published yet.
  const channel = isNode(rss.channel) ? rss.channel : {};
  const seen = new Set<string>();
  return list(channel.item)
    .slice(0, RSS_RECENT_MAX_ITEMS)
    .map((item, index) => itemOf(isNode(item) ? item : {}, index))
    .filter((item) => !seen.has(item.guid) && Boolean(seen.add(item.guid)));
}
