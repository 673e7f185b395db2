import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertFeed } from "../../test/factories.ts";
import { startFakeServer } from "../../test/fakes/server.ts";
import { readJson, startTestServer, type TestServer } from "../../test/harness.ts";
import { addRssItem, type RssItemInput } from "./items.ts";
import { readRecentItems } from "./reader.ts";

let server: TestServer;
let partner: Awaited<ReturnType<typeof startFakeServer>>;

const rss = (items: string, namespaces = "") =>
  `<?xml version="1.0"?><rss version="2.0"${namespaces}><channel><title>T</title>${items}</channel></rss>`;

/** What the partner's RSS host answers, by feed: a good file, broken XML, XML that is not RSS, a failure. */
const PARTNER_FILES: Record<string, { status: number; body: string }> = {
  good: { status: 200, body: rss("<item><title>From the partner</title><guid>p-1</guid></item>") },
  broken: { status: 200, body: "<!doctype html><html><body><p>app</body></html>" },
  atom: {
    status: 200,
    body: '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry/></feed>',
  },
  failing: { status: 500, body: "oops" },
  huge: { status: 200, body: rss(`<item><title>${"x".repeat(6 * 1024 * 1024)}</title></item>`) },
};

function feedPublishingTo(id: string, serviceUrl?: string) {
  return insertFeed(server.db, {
    id,
    name: `Feed ${id}`,
    config: {
      outputs: {
        stream: {
          enabled: true,
          distribute: [{ plugin: "@curate/rss", config: serviceUrl ? { serviceUrl } : {} }],
        },
      },
    } as never,
  });
}

function item(overrides: Partial<RssItemInput>): RssItemInput {
  return {
    guid: "g",
    title: "Solar got cheaper",
    link: "https://x.com/amy/status/1",
    description: "Panels cost <less> than ever.\n\nSecond paragraph.",
    content: null,
    image: "https://pbs.twimg.com/media/abc.png",
    platform: "twitter",
    categories: ["energy", "solar"],
    author: "amy",
    pubDate: new Date("2026-01-02T03:04:05Z"),
    curator: "bob",
    approver: null,
    curatorNote: null,
    sourceUrl: null,
    ...overrides,
  };
}

const recentItems = (feedId: string) => server.request(`/api/feeds/${feedId}/recent-items`);

beforeAll(async () => {
  partner = await startFakeServer((request) => {
    const feedId = /^\/rss\/([^/]+)\/rss\.xml$/.exec(request.path)?.[1] ?? "";
    const file = PARTNER_FILES[feedId];
    if (!file) return { status: 404, body: "no such file", headers: { "content-type": "text/plain" } };
    return { ...file, headers: { "content-type": "application/rss+xml" } };
  });
  const partnerHost = new URL(partner.url).host;
  server = await startTestServer({ RSS_ALLOWED_HOSTS: partnerHost });
  await feedPublishingTo("solar");
  await addRssItem(server.db, "solar", item({ guid: "one", pubDate: new Date("2026-01-01T00:00:00Z") }));
  await addRssItem(server.db, "solar", item({ guid: "two", title: "Wind too", categories: [] }));
  for (const feedId of Object.keys(PARTNER_FILES)) await feedPublishingTo(feedId, `${partner.url}/rss`);
  await insertFeed(server.db, { id: "norss", name: "No RSS" });
  await feedPublishingTo("elsewhere", "https://rss.not-listed.example/rss");
});

afterAll(async () => {
  await server?.close();
  await partner?.close();
});

describe("GET /api/feeds/{id}/recent-items", () => {
  it("reads the feed's file on this deployment's own RSS service, its descriptions as a reader sees them", async () => {
    const response = await recentItems("solar");
    expect(response.status).toBe(200);
    const { data } = await readJson(response);
    expect(data.source).toBe(`${server.env.PUBLIC_URL.replace(/\/+$/, "")}/rss/solar/rss.xml`);
    expect(data.items.map((entry: { guid: string }) => entry.guid).sort()).toEqual(["one", "two"]);
    expect(data.items.find((entry: { guid: string }) => entry.guid === "one")).toEqual({
      title: "Solar got cheaper",
      link: "https://x.com/amy/status/1",
      // The stored text as the file's reader sees it: its markup-like words kept as text, paragraphs joined.
      description: "Panels cost <less> than ever. Second paragraph.",
      pubDate: "Thu, 01 Jan 2026 00:00:00 GMT",
      guid: "one",
      image: "https://pbs.twimg.com/media/abc.png",
      platform: "twitter",
      categories: ["energy", "solar"],
    });
  });

  it("answers no items and no source for a feed without an RSS output this deployment reads", async () => {
    for (const feedId of ["norss", "elsewhere"]) {
      const response = await recentItems(feedId);
      expect(response.status).toBe(200);
      expect((await readJson(response)).data).toEqual({ source: null, items: [] });
    }
    // A host the operator did not list is never asked.
    expect(partner.requests.some((request) => request.path.includes("elsewhere"))).toBe(false);
  });

  it("answers 404 in the envelope for a feed that does not exist", async () => {
    const response = await recentItems("nosuchfeed");
    expect(response.status).toBe(404);
    expect((await readJson(response)).error.code).toBe("NOT_FOUND");
  });

  it("fetches a file on a host the operator listed, once a minute whoever asks", async () => {
    const first = await readJson(await recentItems("good"));
    expect(first.data.source).toBe(`${partner.url}/rss/good/rss.xml`);
    expect(first.data.items).toMatchObject([{ title: "From the partner", guid: "p-1" }]);
    await recentItems("good");
    expect(partner.requests.filter((request) => request.path === "/rss/good/rss.xml")).toHaveLength(1);
  });

  it("says which of the spec's RSS errors it met, as a 503 (the file's service failed, not the request)", async () => {
    const cases = {
      broken: ["invalid-xml", "Invalid XML format"],
      atom: ["invalid-feed", "Invalid RSS feed format"],
      failing: ["fetch-failed", "Failed to fetch RSS feed"],
      huge: ["fetch-failed", "Failed to fetch RSS feed"],
    };
    for (const [feedId, [reason, message]] of Object.entries(cases)) {
      const response = await recentItems(feedId);
      expect(response.status, feedId).toBe(503);
      const body = await readJson(response);
      expect(body.error, feedId).toMatchObject({ code: "UNAVAILABLE", message, details: { reason } });
    }
  });
});

describe("readRecentItems", () => {
  it("keeps script and markup inert: titles and categories are text as written, unsafe links and images dropped", () => {
    const [entry] = readRecentItems(
      rss(`<item>
        <title><![CDATA[<img src=x onerror=alert(1)>Hello & <b>bye</b>]]></title>
        <link>javascript:alert(1)</link>
        <description>&lt;p&gt;One &lt;script&gt;alert(2)&lt;/script&gt;&lt;b&gt;two&lt;/b&gt;&lt;/p&gt; three</description>
        <enclosure url="data:image/png;base64,AAAA" type="image/png" length="1"/>
        <category>&lt;i&gt;solar&lt;/i&gt;</category><category>solar</category>
      </item>`),
    );
    expect(entry).toEqual({
      title: "<img src=x onerror=alert(1)>Hello & <b>bye</b>",
      link: null,
      description: "One two three",
      pubDate: null,
      guid: "item-0",
      image: null,
      platform: "other",
      categories: ["<i>solar</i>", "solar"],
    });
  });

  it("takes RSS's own elements only, each guid once, images from enclosures or media, at most 1,000 items", () => {
    const items = readRecentItems(
      rss(
        `<item><atom:link href="https://evil.example/"/><media:title>no</media:title><title>Yes</title>
          <link>https://www.youtube.com/watch?v=1</link><guid isPermaLink="false">same</guid>
          <media:content url="https://img.example/1.png" medium="image"/><pubDate>yesterday-ish</pubDate></item>
         <item><title>Again</title><guid>same</guid></item>
         <item><title>Enclosed</title><enclosure url="https://img.example/2.jpg" type="image/jpeg" length="1"/></item>`,
        ' xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"',
      ),
    );
    expect(items).toMatchObject([
      {
        title: "Yes",
        link: "https://www.youtube.com/watch?v=1",
        platform: "youtube",
        guid: "same",
        pubDate: null,
      },
      { title: "Enclosed", image: "https://img.example/2.jpg", guid: "item-2" },
    ]);
    expect(items[0]?.image).toBe("https://img.example/1.png");
    const many = readRecentItems(
      rss(Array.from({ length: 1100 }, (_, i) => `<item><guid>${i}</guid></item>`).join("")),
    );
    expect(many).toHaveLength(1000);
    expect(readRecentItems(rss(""))).toEqual([]);
    expect(readRecentItems("<rss version='2.0'><channel/></rss>")).toEqual([]);
  });

  it("refuses what is not XML, and XML that is not RSS 2.0", () => {
    for (const text of ["", "not xml", "<rss><channel><item></rss>"]) {
      expect(() => readRecentItems(text), text).toThrow("invalid-xml");
    }
    for (const text of [
      '<?xml version="1.0"?><feed><entry/></feed>',
      "<rss/>",
      '<rdf:RDF xmlns:rdf="x"><channel/></rdf:RDF>',
    ]) {
      expect(() => readRecentItems(text), text).toThrow("invalid-feed");
    }
  });
});
