import { parseFeed } from "@rowanmanning/feed-parser";
import { eq, sql } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import Parser from "rss-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { readJson, startTestServer, type TestServer } from "../../test/harness.ts";
import { feeds, rssItems } from "../db/schema.ts";
import { jsonFeedDocument, xmlDocument } from "./documents.ts";
import { addRssItem, type RssItemInput } from "./items.ts";

let server: TestServer;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  isArray: (name, jpath) =>
    ["item", "entry", "category", "outline"].includes(name) || jpath === "feed.entry.link",
});

// Anything outside XML 1.0's Char production, and the bidirectional controls the documents promise to drop.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\u202A-\u202E\u2066-\u2069]/u;

/** A document a real XML parser accepts, parsed. */
function parseXml(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  expect(text).not.toMatch(NOT_XML_CHAR);
  // The validator lets `<` in an attribute value through; XML does not.
  expect(text).not.toMatch(/="[^"]*</);
  return parser.parse(text);
}

function rssFeed(id: string, config: Record<string, unknown> = {}) {
  return insertFeed(server.db, {
    id,
    name: `Feed ${id}`,
    config: {
      outputs: {
        stream: {
          enabled: true,
          distribute: [
            {
              plugin: "@curatedotfun/rss",
              config: { serviceUrl: `${server.env.PUBLIC_URL}/rss`, ...config },
            },
          ],
        },
      },
    } as never,
  });
}

function item(overrides: Partial<RssItemInput> = {}): RssItemInput {
  return {
    guid: `https://x.com/amy/status/${Math.random().toString().slice(2)}`,
    title: "Solar got cheaper",
    link: "https://x.com/amy/status/1",
    description: "Panels cost less than ever.",
    content: "Panels cost less than ever.\n\nSecond paragraph.",
    image: "https://pbs.twimg.com/media/abc.png",
    platform: "twitter",
    categories: ["energy", "solar"],
    author: "amy",
    pubDate: new Date("2026-01-02T03:04:05Z"),
    curator: "bob",
    approver: "carol.near",
    curatorNote: "Worth reading",
    sourceUrl: "https://x.com/amy/status/1",
    ...overrides,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  await rssFeed("solar", {
    feedConfig: { title: "Solar news", description: "The sun, daily", siteUrl: "https://example.com/solar" },
  });
  await addRssItem(server.db, "solar", item({ guid: "one", pubDate: new Date("2026-01-01T00:00:00Z") }));
  await addRssItem(server.db, "solar", item({ guid: "two", title: "Wind too", categories: [] }));
  await insertFeed(server.db, { id: "norss", name: "No RSS" });
  await rssFeed("paused");
  await server.db
    .update(feeds)
    .set({ config: sql`jsonb_set(config, '{outputs,stream,enabled}', 'false')` })
    .where(eq(feeds.id, "paused"));
});

afterAll(() => server.close());

describe("GET /rss/{feedId}/rss.xml", () => {
  it("is a valid RSS 2.0 document of the feed's items, newest first", async () => {
    const response = await server.request("/rss/solar/rss.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("last-modified")).toMatch(/GMT$/);
    expect(response.headers.get("etag")).toMatch(/^W\/".+"$/);
    const doc = parseXml(await response.text());
    expect(doc.rss["@_version"]).toBe("2.0");
    const channel = doc.rss.channel;
    expect(channel.title).toBe("Solar news");
    expect(channel.description).toBe("The sun, daily");
    expect(channel.link).toBe("https://example.com/solar");
    expect(channel.item.map((i: { guid: { "#text": string } }) => i.guid["#text"])).toEqual(["two", "one"]);
    const first = channel.item[1];
    expect(first).toMatchObject({
      title: "Solar got cheaper",
      link: "https://x.com/amy/status/1",
      description: "Panels cost less than ever.",
      "content:encoded": "<p>Panels cost less than ever.</p><p>Second paragraph.</p>",
      pubDate: "Thu, 01 Jan 2026 00:00:00 GMT",
      category: ["energy", "solar"],
      enclosure: { "@_url": "https://pbs.twimg.com/media/abc.png", "@_type": "image/png" },
    });
  });

  it("is gzipped once for readers that take gzip, and sent as it is to others", async () => {
    const plain = await server.request("/rss/solar/rss.xml", { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const text = await plain.text();
    expect(plain.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const zipped = await server.request("/rss/solar/rss.xml", {
      headers: { "Accept-Encoding": "br;q=1, gzip;q=0.8" },
    });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("Accept-Encoding");
    expect(await zipped.text()).toBe(text);
    const refused = await server.request("/rss/solar/rss.xml", {
      headers: { "Accept-Encoding": "gzip;q=0" },
    });
    expect(refused.headers.get("content-encoding")).toBeNull();
  });

  it("is open to every origin", async () => {
    const response = await server.request("/rss/solar/rss.xml", {
      headers: { Origin: "https://reader.example" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toMatch(/ETag/);
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const preflight = await server.request("/rss/solar/rss.xml", {
      method: "OPTIONS",
      headers: {
        Origin: "https://reader.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers a revalidation with 304 until an item is added", async () => {
    const first = await server.request("/rss/solar/rss.xml");
    const etag = first.headers.get("etag") as string;
    const lastModified = first.headers.get("last-modified") as string;
    const again = await server.request("/rss/solar/rss.xml", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const listed = await server.request("/rss/solar/rss.xml", {
      headers: { "If-None-Match": `"other", ${etag}` },
    });
    expect(listed.status).toBe(304);
    const since = await server.request("/rss/solar/rss.xml", {
      headers: { "If-Modified-Since": lastModified },
    });
    expect(since.status).toBe(304);
    // Each format has its own tag.
    const atom = await server.request("/rss/solar/atom.xml", { headers: { "If-None-Match": etag } });
    expect(atom.status).toBe(200);

    await addRssItem(server.db, "solar", item({ guid: "three" }));
    const changed = await server.request("/rss/solar/rss.xml", { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await changed.text()).toContain('<guid isPermaLink="false">three</guid>');
  });

  it("is a 404 in XML for an unknown feed, a feed without an RSS output, or an unknown file", async () => {
    for (const path of ["/rss/nosuchfeed/rss.xml", "/rss/norss/rss.xml", "/rss/solar/index.html", "/rss/x"]) {
      const response = await server.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toBe("application/xml; charset=utf-8");
      const doc = parseXml(await response.text());
      expect(doc.error.status, path).toBe(404);
    }
    const atom = await server.request("/rss/nosuchfeed/atom.xml");
    expect(atom.status).toBe(404);
    expect(parseXml(await atom.text()).error.message).toBe('No RSS feed "nosuchfeed" here.');
  });

  it("is a 404 for a feed whose RSS goes to an external service", async () => {
    await rssFeed("elsewhere", { serviceUrl: "https://rss.example.com" });
    expect((await server.request("/rss/elsewhere/rss.xml")).status).toBe(404);
  });
});

describe("GET /rss/{feedId}/atom.xml", () => {
  it("is a valid Atom 1.0 document", async () => {
    const response = await server.request("/rss/solar/atom.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const doc = parseXml(await response.text());
    expect(doc.feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(doc.feed.title).toEqual({ "#text": "Solar news", "@_type": "text" });
    const entry = doc.feed.entry.find((e: { id: string }) => e.id === "urn:curate:solar:one");
    expect(entry.title["#text"]).toBe("Solar got cheaper");
    expect(entry.link.map((l: Record<string, string>) => l["@_href"])).toContain(
      "https://x.com/amy/status/1",
    );
    expect(entry.updated).toBe("2026-01-01T00:00:00.000Z");
    expect(entry.author.name).toBe("amy");
  });
});

describe("GET /rss/{feedId}/feed.json", () => {
  it("is JSON Feed 1.1 with the curation metadata in _curate", async () => {
    const response = await server.request("/rss/solar/feed.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/feed+json; charset=utf-8");
    expect(response.headers.get("etag")).toBeTruthy();
    const feed = await readJson(response);
    expect(feed).toMatchObject({
      version: "https://jsonfeed.org/version/1.1",
      title: "Solar news",
      home_page_url: "https://example.com/solar",
      feed_url: `${server.env.PUBLIC_URL}/rss/solar/feed.json`,
    });
    // Every item has an id and a body (content_text or content_html), as JSON Feed requires.
    for (const entry of feed.items) {
      expect(typeof entry.id).toBe("string");
      expect(typeof (entry.content_text ?? entry.content_html)).toBe("string");
    }
    const one = feed.items.find((i: { id: string }) => i.id === "urn:curate:solar:one");
    expect(one).toEqual({
      id: "urn:curate:solar:one",
      url: "https://x.com/amy/status/1",
      title: "Solar got cheaper",
      content_text: "Panels cost less than ever.\n\nSecond paragraph.",
      content_html: "<p>Panels cost less than ever.</p><p>Second paragraph.</p>",
      summary: "Panels cost less than ever.",
      image: "https://pbs.twimg.com/media/abc.png",
      date_published: "2026-01-01T00:00:00.000Z",
      authors: [{ name: "amy" }],
      tags: ["energy", "solar"],
      _curate: {
        guid: "one",
        platform: "twitter",
        curator: "bob",
        approver: "carol.near",
        curatorNote: "Worth reading",
        sourceUrl: "https://x.com/amy/status/1",
      },
    });
  });

  it("is a 404 in the JSON envelope for an unknown feed", async () => {
    const { status, body } = await server.json("/rss/nosuchfeed/feed.json");
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  });
});

describe("hostile text", () => {
  const hostile =
    '<script>alert("x")</script> & ]]> <![CDATA[ \u0000\u0001\u0008\u000B\u001F\uFFFE bell\u0007 ' +
    "\u202Eevil\u202C \u2066iso\u2069 lone\uD800high \uDC00low 😀 ok";

  beforeAll(async () => {
    // A config is JSON in PostgreSQL, which can hold neither NUL nor lone surrogates (items are cleaned on storage).
    const storable = ["\u0000", "\uD800", "\uDC00"].reduce(
      (text, char) => text.replaceAll(char, ""),
      hostile,
    );
    await rssFeed("hostile", { feedConfig: { title: `Feed ${storable}`, description: storable } });
    await addRssItem(
      server.db,
      "hostile",
      item({
        guid: `guid ${hostile}`,
        title: hostile,
        description: hostile,
        content: hostile,
        author: hostile,
        categories: [hostile],
        curatorNote: hostile,
      }),
    );
  });

  it("yields valid, inert RSS and Atom documents", async () => {
    for (const file of ["rss.xml", "atom.xml"]) {
      const text = await (await server.request(`/rss/hostile/${file}`)).text();
      const doc = parseXml(text);
      // No element came out of the text: it is all character data.
      expect(text).not.toMatch(/<script/i);
      const entry = file === "rss.xml" ? doc.rss.channel.item[0] : doc.feed.entry[0];
      const title = file === "rss.xml" ? entry.title : entry.title["#text"];
      // A title is plain text, escaped once for XML: the markup shows as written.
      expect(title).toBe('<script>alert("x")</script> & ]]> <![CDATA[  bell evil iso lonehigh low 😀 ok');
    }
  });

  it("is cleaned by the documents themselves, whatever reaches them", () => {
    const raw = {
      ...item({ guid: hostile }),
      title: hostile,
      description: hostile,
      content: hostile,
      author: hostile,
    };
    const channel = {
      feedId: "x",
      title: hostile,
      description: hostile,
      siteUrl: "https://example.com/x",
      image: null,
      filesUrl: "https://example.com/rss/x",
      updated: new Date(0),
    };
    for (const text of [xmlDocument("rss", channel, [raw]), xmlDocument("atom", channel, [raw])]) {
      parseXml(text);
      expect(text).not.toMatch(/<script/i);
    }
    const json = jsonFeedDocument(channel, [raw]);
    expect(json.isWellFormed()).toBe(true);
    expect(json).not.toMatch(/\\u(?:[dD][89a-fA-F]|000)/);
  });

  it("yields valid JSON Feed with the text kept as plain text", async () => {
    const text = await (await server.request("/rss/hostile/feed.json")).text();
    expect(text.isWellFormed()).toBe(true);
    expect(text).not.toMatch(/\\u[dD][89a-fA-F]/);
    const feed = JSON.parse(text);
    const [entry] = feed.items;
    expect(entry.title).toBe('<script>alert("x")</script> & ]]> <![CDATA[  bell evil iso lonehigh low 😀 ok');
    expect(entry.content_html).not.toContain("<script");
    expect(entry._curate.curatorNote).toBe(entry.title);
  });
});

describe("as feed readers read them (rss-parser, @rowanmanning/feed-parser)", () => {
  const rssParser = new Parser();
  // rss-parser leaves Atom's categories out unless asked for the element.
  const atomParser = new Parser<
    object,
    { author?: string; categories: Array<{ $: { term: string; label: string } }> }
  >({
    customFields: { item: [["category", "categories", { keepArray: true }]] },
  });
  const title = "Q&A: AT&T ships Vec<T> <script>alert(1)</script>";
  const summary = "Rollups & Vec<T>: <b>not bold</b>";

  beforeAll(async () => {
    await rssFeed("readers", { feedConfig: { title: "Q&A weekly", description: "Rust & <T>" } });
    await addRssItem(
      server.db,
      "readers",
      item({
        guid: "qa",
        title,
        description: summary,
        content: summary,
        author: "Ada Lovelace",
        categories: ["c<d>", "Q&A"],
      }),
    );
  });

  const fetchText = async (file: string) => {
    const response = await server.request(`/rss/readers/${file}`);
    expect(response.status).toBe(200);
    return response.text();
  };

  it("RSS 2.0: a title, a category and the author read as written; the author is dc:creator", async () => {
    const text = await fetchText("rss.xml");
    parseXml(text);
    // RSS's <author> is an e-mail address; a bare name goes in Dublin Core's creator, its namespace declared.
    expect(text).not.toMatch(/<author>/);
    expect(text).toContain('xmlns:dc="http://purl.org/dc/elements/1.1/"');

    const read = await rssParser.parseString(text);
    expect(read.title).toBe("Q&A weekly");
    expect(read.description).toBe("Rust & <T>");
    const [entry] = read.items;
    expect(entry.title).toBe(title);
    expect(entry.creator).toBe("Ada Lovelace");
    expect(entry.author).toBeUndefined();
    expect(entry.categories).toEqual(["c<d>", "Q&A"]);
    // The description is HTML showing the text: its text is the summary, markup and all.
    expect(entry.contentSnippet).toBe(summary);
    expect(entry.content).toBe("Rollups &amp; Vec&lt;T&gt;: &lt;b&gt;not bold&lt;/b&gt;");

    const parsed = parseFeed(text);
    expect(parsed.title).toBe("Q&A weekly");
    const [other] = parsed.items;
    expect(other.title).toBe(title);
    expect(other.authors.map((author) => author.name)).toEqual(["Ada Lovelace"]);
    expect(other.categories.map((category) => category.label)).toEqual(["c<d>", "Q&A"]);
    expect(other.description).toBe(summary);
  });

  it("Atom 1.0: the same, with a category's term and label both the text", async () => {
    const text = await fetchText("atom.xml");
    parseXml(text);
    const read = await atomParser.parseString(text);
    expect(read.title).toBe("Q&A weekly");
    const [entry] = read.items;
    expect(entry.title).toBe(title);
    expect(entry.author).toBe("Ada Lovelace");
    expect(entry.categories.map((category) => category.$)).toEqual([
      { term: "c<d>", label: "c<d>" },
      { term: "Q&A", label: "Q&A" },
    ]);
    expect(entry.contentSnippet).toBe(summary);

    const parsed = parseFeed(text);
    const [other] = parsed.items;
    expect(other.title).toBe(title);
    expect(other.authors.map((author) => author.name)).toEqual(["Ada Lovelace"]);
    expect(other.categories.map(({ label, term }) => ({ label, term }))).toEqual([
      { label: "c<d>", term: "c<d>" },
      { label: "Q&A", term: "Q&A" },
    ]);
    expect(other.description).toBe(summary);
  });

  it("JSON Feed: the same texts, as plain JSON strings", async () => {
    // Neither parser reads JSON Feed (both are RSS and Atom readers): it is read as the JSON it is.
    expect(() => parseFeed(JSON.stringify({ version: "https://jsonfeed.org/version/1.1" }))).toThrow();
    const feed = JSON.parse(await fetchText("feed.json"));
    expect(feed.title).toBe("Q&A weekly");
    const [entry] = feed.items;
    expect(entry).toMatchObject({
      title,
      summary,
      content_text: summary,
      authors: [{ name: "Ada Lovelace" }],
      tags: ["c<d>", "Q&A"],
    });
  });

  it("answers If-Modified-Since with the Last-Modified it gave with a 304, on every document", async () => {
    // Changed at a time with milliseconds, as a database's clock writes it: HTTP dates have whole seconds.
    await server.db.update(feeds).set({ updatedAt: new Date("2026-01-05T10:00:00.750Z") });
    await server.db.update(rssItems).set({ createdAt: new Date("2026-01-05T09:00:00.250Z") });
    for (const path of [
      "/rss/opml.xml",
      "/rss/readers/rss.xml",
      "/rss/readers/atom.xml",
      "/rss/readers/feed.json",
    ]) {
      const first = await server.request(path);
      expect(first.status, path).toBe(200);
      const lastModified = first.headers.get("last-modified") as string;
      expect(lastModified, path).toBe("Mon, 05 Jan 2026 10:00:00 GMT");
      const since = await server.request(path, { headers: { "If-Modified-Since": lastModified } });
      expect(since.status, path).toBe(304);
      const earlier = await server.request(path, {
        headers: { "If-Modified-Since": "Mon, 05 Jan 2026 09:59:59 GMT" },
      });
      expect(earlier.status, path).toBe(200);
    }
  });
});

describe("the newest N items", () => {
  it("keeps the newest maxItems and never adds a guid twice", async () => {
    await rssFeed("capped", { maxItems: 3 });
    for (let day = 1; day <= 5; day++) {
      const added = await addRssItem(
        server.db,
        "capped",
        item({ guid: `day-${day}`, pubDate: new Date(Date.UTC(2026, 0, day)) }),
        3,
      );
      expect(added).toEqual({ added: true });
    }
    expect(await addRssItem(server.db, "capped", item({ guid: "day-5", title: "again" }), 3)).toEqual({
      added: false,
    });
    const doc = parseXml(await (await server.request("/rss/capped/rss.xml")).text());
    expect(doc.rss.channel.item.map((i: { guid: { "#text": string } }) => i.guid["#text"])).toEqual([
      "day-5",
      "day-4",
      "day-3",
    ]);
    expect(doc.rss.channel.item[0].title).toBe("Solar got cheaper");
    expect(await server.db.select().from(rssItems).where(eq(rssItems.feedId, "capped"))).toHaveLength(3);
  });
});

describe("GET /rss/opml.xml", () => {
  it("lists every feed with an RSS output here", async () => {
    const response = await server.request("/rss/opml.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/x-opml; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const doc = parseXml(await response.text());
    expect(doc.opml["@_version"]).toBe("2.0");
    const outlines = doc.opml.body.outline as Array<Record<string, string>>;
    const ids = outlines.map((o) => o["@_xmlUrl"].replace(`${server.env.PUBLIC_URL}/rss/`, ""));
    expect(ids).toEqual(expect.arrayContaining(["solar/rss.xml", "hostile/rss.xml", "capped/rss.xml"]));
    expect(ids).not.toContain("norss/rss.xml");
    expect(ids).not.toContain("paused/rss.xml");
    expect((await server.request("/rss/paused/rss.xml")).status).toBe(200);
    expect(ids).not.toContain("elsewhere/rss.xml");
    const solar = outlines.find((o) => o["@_xmlUrl"].endsWith("/solar/rss.xml"));
    expect(solar).toMatchObject({ "@_type": "rss", "@_text": "Feed solar" });
    const etag = response.headers.get("etag") as string;
    const again = await server.request("/rss/opml.xml", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});

describe("with the public read cache on", () => {
  it("reads a feed's state at most once per cache time, so a new item shows within it", async () => {
    const cached = await startTestServer({ READ_CACHE_TTL_MS: "1500" });
    // The cache's clock is the test's: a busy machine must not decide whether a request falls inside the cache time.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      await insertFeed(cached.db, {
        id: "polled",
        config: { outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss" }] } } } as never,
      });
      const first = await cached.request("/rss/polled/rss.xml");
      const etag = first.headers.get("etag") as string;
      await addRssItem(cached.db, "polled", item({ guid: "late" }));
      const soon = await cached.request("/rss/polled/rss.xml", { headers: { "If-None-Match": etag } });
      expect(soon.status).toBe(304);
      vi.advanceTimersByTime(1_499);
      expect(
        (await cached.request("/rss/polled/rss.xml", { headers: { "If-None-Match": etag } })).status,
      ).toBe(304);
      vi.advanceTimersByTime(2);
      const later = await cached.request("/rss/polled/rss.xml", { headers: { "If-None-Match": etag } });
      expect(later.status).toBe(200);
      expect(await later.text()).toContain(">late</guid>");
    } finally {
      vi.useRealTimers();
      await cached.close();
    }
  });
});
