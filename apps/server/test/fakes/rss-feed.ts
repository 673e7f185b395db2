import { createHash } from "node:crypto";
import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/** An item as a blog publishes it; `html` is its summary's markup. */
export interface PublishedItem {
  /** The guid (RSS), id (Atom, JSON Feed). */
  id: string;
  title: string;
  link?: string;
  html?: string;
  author?: string;
  published?: Date;
  image?: { url: string; type: string };
}

export type FeedFormat = "rss" | "atom" | "json";

interface Feed {
  format: FeedFormat;
  title: string;
  home: string;
  /** Newest first, as feeds list them. */
  items: PublishedItem[];
  /** Entries written by hand into the document as they are, for entries no well-formed item produces. */
  rawEntries: string[];
  /** A whole document served as it is instead of the rendered one. */
  raw: { body: string; contentType: string } | null;
  changedAt: Date;
}

const xml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!,
  );

function rss(feed: Feed, url: string): string {
  const items = feed.items.map(
    (item) => `<item>
<title>${xml(item.title)}</title>
${item.link ? `<link>${xml(item.link)}</link>` : ""}
<guid isPermaLink="false">${xml(item.id)}</guid>
${item.published ? `<pubDate>${item.published.toUTCString()}</pubDate>` : ""}
${item.author ? `<dc:creator>${xml(item.author)}</dc:creator>` : ""}
${item.html ? `<description><![CDATA[${item.html}]]></description>` : ""}
${item.image ? `<enclosure url="${xml(item.image.url)}" length="0" type="${xml(item.image.type)}"/>` : ""}
</item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${xml(feed.title)}</title>
<link>${xml(feed.home)}</link>
<description>${xml(feed.title)}</description>
<atom:link href="${xml(url)}" rel="self" type="application/rss+xml"/>
<lastBuildDate>${feed.changedAt.toUTCString()}</lastBuildDate>
${[...feed.rawEntries, ...items].join("\n")}
</channel>
</rss>`;
}

function atom(feed: Feed, url: string): string {
  const entries = feed.items.map(
    (item) => `<entry>
<id>${xml(item.id)}</id>
<title type="text">${xml(item.title)}</title>
${item.link ? `<link rel="alternate" type="text/html" href="${xml(item.link)}"/>` : ""}
${item.published ? `<published>${item.published.toISOString()}</published>` : ""}
<updated>${(item.published ?? feed.changedAt).toISOString()}</updated>
${item.author ? `<author><name>${xml(item.author)}</name></author>` : ""}
${item.html ? `<summary type="html">${xml(item.html)}</summary>` : ""}
${item.image ? `<link rel="enclosure" type="${xml(item.image.type)}" href="${xml(item.image.url)}"/>` : ""}
</entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>${xml(feed.title)}</title>
<id>${xml(url)}</id>
<link rel="self" href="${xml(url)}"/>
<link rel="alternate" href="${xml(feed.home)}"/>
<updated>${feed.changedAt.toISOString()}</updated>
${[...feed.rawEntries, ...entries].join("\n")}
</feed>`;
}

function jsonFeed(feed: Feed, url: string): string {
  const items = feed.items.map((item) => ({
    id: item.id,
    title: item.title,
    ...(item.link ? { url: item.link } : {}),
    ...(item.html ? { content_html: item.html } : {}),
    ...(item.published ? { date_published: item.published.toISOString() } : {}),
    ...(item.author ? { authors: [{ name: item.author }] } : {}),
    ...(item.image ? { attachments: [{ url: item.image.url, mime_type: item.image.type }] } : {}),
  }));
  const raw = feed.rawEntries.map((entry) => JSON.parse(entry));
  return JSON.stringify({
    version: "https://jsonfeed.org/version/1.1",
    title: feed.title,
    home_page_url: feed.home,
    feed_url: url,
    items: [...raw, ...items],
  });
}

const CONTENT_TYPES: Record<FeedFormat, string> = {
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
  json: "application/feed+json; charset=utf-8",
};

/** An entry with nothing a reader could show: no id, title, link or text (only a category). */
const EMPTY_ENTRIES: Record<FeedFormat, string> = {
  rss: "<item><category>misc</category></item>",
  atom: "<entry><category term='misc'/></entry>",
  json: JSON.stringify({ id: "", tags: ["misc"] }),
};

/**
 * A web server publishing feeds as blogs do: RSS 2.0, Atom 1.0 or JSON Feed 1.1 documents at their paths, with an
 * `ETag` (of the document) and `Last-Modified` (when it last changed), answering a conditional GET whose
 * `If-None-Match` (or, without one, `If-Modified-Since`) still matches with a bodiless 304. Tests publish items,
 * slip in an unreadable entry, replace a document with anything, and queue failures (503, 429 with Retry-After).
 */
export async function startFakeFeeds() {
  const feeds = new Map<string, Feed>();
  const queue = answerQueue();
  let origin = "";

  const render = (path: string, feed: Feed) => {
    if (feed.raw) return feed.raw;
    const url = `${origin}${path}`;
    const body =
      feed.format === "rss" ? rss(feed, url) : feed.format === "atom" ? atom(feed, url) : jsonFeed(feed, url);
    return { body, contentType: CONTENT_TYPES[feed.format] };
  };

  const answered: Array<{ path: string; status: number }> = [];

  const answer = (request: ReceivedRequest): FakeAnswer => {
    const queued = queue.next();
    if (queued) return queued;
    const feed = feeds.get(request.path);
    if (!feed) return { status: 404, headers: { "content-type": "text/html" }, body: "<h1>Not Found</h1>" };
    if (request.method !== "GET" && request.method !== "HEAD") return { status: 405, body: "" };
    const { body, contentType } = render(request.path, feed);
    const etag = `"${createHash("sha1").update(body).digest("hex")}"`;
    // HTTP dates have whole seconds.
    const lastModified = new Date(Math.floor(feed.changedAt.getTime() / 1000) * 1000);
    const validators = { etag, "last-modified": lastModified.toUTCString() };
    const ifNoneMatch = request.headers["if-none-match"];
    const ifModifiedSince = request.headers["if-modified-since"];
    const unchanged = ifNoneMatch
      ? String(ifNoneMatch)
          .split(",")
          .some((tag) => tag.trim() === etag || tag.trim() === "*")
      : !!ifModifiedSince && Date.parse(String(ifModifiedSince)) >= lastModified.getTime();
    if (unchanged) return { status: 304, headers: validators };
    // The fake server writes JSON bodies itself: hand it the document's value, which it writes back unchanged.
    const payload = contentType.includes("json") ? JSON.parse(body) : body;
    return { status: 200, headers: { ...validators, "content-type": contentType }, body: payload };
  };

  const server = await startFakeServer((request) => {
    const given = answer(request);
    answered.push({ path: request.path, status: "status" in given ? given.status : 0 });
    return given;
  });
  origin = server.url;

  const feedAt = (path: string) => {
    const feed = feeds.get(path);
    if (!feed) throw new Error(`no feed at ${path}`);
    return feed;
  };
  const changed = (feed: Feed) => {
    // A change within the same second must still move Last-Modified, as a real server's clock would by then.
    feed.changedAt = new Date(Math.max(Date.now(), feed.changedAt.getTime() + 1000));
  };

  return {
    url: server.url,
    requests: server.requests,
    /** The status each request was answered with, in order. */
    answered,
    /** Requests for one feed's path. */
    requestsFor: (path: string) => server.requests.filter((request) => request.path === path),
    /** Publishes an empty feed at `path`; returns its address. */
    publish(path: string, format: FeedFormat, title: string): string {
      feeds.set(path, {
        format,
        title,
        home: `${origin}${path.replace(/\/[^/]*$/, "/")}`,
        items: [],
        rawEntries: [],
        raw: null,
        changedAt: new Date(Date.now() - 60_000),
      });
      return `${origin}${path}`;
    },
    /** Adds items to the top of the feed, as a new post would appear. */
    add(path: string, ...items: PublishedItem[]) {
      const feed = feedAt(path);
      feed.items.unshift(...items.reverse());
      changed(feed);
    },
    /** Adds an entry with nothing a reader could show, beside the feed's readable items. */
    addUnreadableEntry(path: string) {
      const feed = feedAt(path);
      feed.rawEntries.push(EMPTY_ENTRIES[feed.format]);
      changed(feed);
    },
    /** Serves `body` at `path` instead of the feed (a broken document, an HTML page); null restores the feed. */
    serveRaw(path: string, raw: { body: string; contentType: string } | null) {
      const feed = feedAt(path);
      feed.raw = raw;
      changed(feed);
    },
    /** The next requests get these answers instead (a 503, a 429 with Retry-After, a redirect, …). */
    answerNext(...answers: FakeAnswer[]) {
      queue.push(...answers);
    },
    close: server.close,
  };
}
