// @vitest-environment jsdom

import { rssPlatformOf as platformOf } from "@curate/core";
import { describe, expect, it } from "vitest";
import {
  feedRssFileUrl,
  newestItems,
  parseRss,
  RSS_INVALID_FEED,
  RSS_INVALID_XML,
  rssServiceUrl,
} from "./rss";

const RSS = `<?xml version="1.0"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>Solar</title>
    <item>
      <title>Older</title><link>https://x.com/a/status/1</link><description>First</description>
      <pubDate>Mon, 02 Jun 2025 10:00:00 GMT</pubDate><category>solar</category><category>pv</category>
      <media:content url="https://img.example/1.png" medium="image"/>
    </item>
    <item>
      <title>Newer</title><link>https://github.com/org/repo</link><guid>g-2</guid>
      <pubDate>Tue, 03 Jun 2025 10:00:00 GMT</pubDate>
      <enclosure url="https://img.example/2.jpg" type="image/jpeg" length="1"/>
    </item>
  </channel>
</rss>`;

describe("parseRss", () => {
  it("reads RSS 2.0 items with images, platforms and categories", () => {
    const [older, newer] = parseRss(RSS);
    expect(older).toEqual({
      title: "Older",
      link: "https://x.com/a/status/1",
      description: "First",
      pubDate: "Mon, 02 Jun 2025 10:00:00 GMT",
      guid: "https://x.com/a/status/1",
      image: "https://img.example/1.png",
      platform: "twitter",
      categories: ["solar", "pv"],
    });
    expect(newer).toMatchObject({ guid: "g-2", image: "https://img.example/2.jpg", platform: "github" });
    expect(newestItems([older, newer], 9).map((item) => item.title)).toEqual(["Newer", "Older"]);
  });

  it("throws the spec's texts for broken XML and for XML that is not RSS", () => {
    expect(() => parseRss("<!doctype html><html><body><p>app</body></html>")).toThrow(RSS_INVALID_XML);
    expect(() => parseRss('<?xml version="1.0"?><feed><entry/></feed>')).toThrow(RSS_INVALID_FEED);
  });
});

describe("parseRss with hostile or sparse input", () => {
  const rss = (items: string, extra = "") =>
    `<?xml version="1.0"?><rss version="2.0"${extra}><channel><title>T</title>${items}</channel></rss>`;

  it("keeps script and markup inert: titles and categories are text as written, descriptions are read as HTML, unsafe links and images are dropped", () => {
    const [item] = parseRss(
      rss(`<item>
        <title><![CDATA[<img src=x onerror=alert(1)>Hello & <b>bye</b>]]></title>
        <link>javascript:alert(1)</link>
        <description>&lt;p&gt;One &lt;script&gt;alert(2)&lt;/script&gt;&lt;b&gt;two&lt;/b&gt;&lt;/p&gt;  ]]&gt; three</description>
        <enclosure url="data:image/png;base64,AAAA" type="image/png" length="1"/>
        <category>&lt;i&gt;solar&lt;/i&gt;</category><category>solar</category>
      </item>`),
    );
    expect(item).toMatchObject({
      title: "<img src=x onerror=alert(1)>Hello & <b>bye</b>",
      link: null,
      image: null,
      platform: "other",
      categories: ["<i>solar</i>", "solar"],
    });
    expect(item?.description).toBe("One alert(2)two ]]> three");
    expect(item?.guid).toBe("item-0");
  });

  it("reads a feed without the Atom namespace and with every optional field missing", () => {
    expect(parseRss(rss("<item/>"))).toEqual([
      {
        title: "",
        link: null,
        description: "",
        pubDate: null,
        guid: "item-0",
        image: null,
        platform: "other",
        categories: [],
      },
    ]);
    expect(parseRss(rss(""))).toEqual([]);
    // An unparseable date is no date: the item sorts last instead of throwing.
    const [item] = parseRss(rss("<item><title>x</title><pubDate>yesterday-ish</pubDate></item>"));
    expect(item?.pubDate).toBeNull();
  });

  it("takes RSS 2.0's own elements only, not namespaced look-alikes, and each guid once", () => {
    const [item, ...rest] = parseRss(
      rss(
        `<item><atom:link href="https://evil.example/"/><media:title>no</media:title><title>Yes</title>
          <link>https://www.youtube.com/watch?v=1</link><guid>same</guid></item>
         <item><title>Again</title><guid>same</guid></item>`,
        ' xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"',
      ),
    );
    expect(item).toMatchObject({
      title: "Yes",
      link: "https://www.youtube.com/watch?v=1",
      platform: "youtube",
    });
    expect(rest).toEqual([]);
  });

  it("refuses documents whose root is not RSS, and tolerates long and control-character text", () => {
    expect(() => parseRss('<?xml version="1.0"?><rdf:RDF xmlns:rdf="x"><channel/></rdf:RDF>')).toThrow(
      RSS_INVALID_FEED,
    );
    expect(() =>
      parseRss('<rss version="2.0"><channel><item><title>\u0001</title></item></channel></rss>'),
    ).toThrow(RSS_INVALID_XML);
    expect(() => parseRss("")).toThrow(RSS_INVALID_XML);
    const [item] = parseRss(rss(`<item><description>${"word ".repeat(5000)}</description></item>`));
    expect(item?.description.length).toBe(2000);
    const many = parseRss(
      rss(Array.from({ length: 1100 }, (_, i) => `<item><guid>${i}</guid></item>`).join("")),
    );
    expect(many).toHaveLength(1000);
  });
});

describe("RSS helpers", () => {
  it("finds the RSS service URL under either plugin name, ignoring placeholders", () => {
    const settings = { publicUrl: "https://h/", rssHosts: ["h", "rss.partner.example"] };
    expect(
      rssServiceUrl([{ plugin: "@curatedotfun/rss", config: { serviceUrl: "https://h/rss/" } }], settings),
    ).toBe("https://h/rss");
    expect(
      rssServiceUrl(
        [{ plugin: "@curate/rss", config: { serviceUrl: "https://rss.partner.example/x" } }],
        settings,
      ),
    ).toBe("https://rss.partner.example/x");
    // Left out, it is this deployment's own service, as the server publishes.
    expect(rssServiceUrl([{ plugin: "@curate/rss", config: {} }], settings)).toBe("https://h/rss");
    expect(rssServiceUrl([{ plugin: "@curate/rss" }], settings)).toBe("https://h/rss");
    expect(
      rssServiceUrl([{ plugin: "@curate/rss", config: { serviceUrl: "{{RSS_URL}}" } }], settings),
    ).toBeNull();
    expect(rssServiceUrl([{ plugin: "@curate/telegram" }], settings)).toBeNull();
    expect(rssServiceUrl(undefined, settings)).toBeNull();
    // Only hosts this deployment reads RSS from: a feed's config cannot send visitors' browsers elsewhere.
    expect(
      rssServiceUrl(
        [{ plugin: "@curate/rss", config: { serviceUrl: "https://evil.example/rss" } }],
        settings,
      ),
    ).toBeNull();
    expect(
      rssServiceUrl([{ plugin: "@curate/rss", config: { serviceUrl: "javascript:alert(1)//h" } }], settings),
    ).toBeNull();
    expect(rssServiceUrl([{ plugin: "@curate/rss", config: { serviceUrl: 42 } }], settings)).toBeNull();
  });

  it("finds a feed's RSS file from its stream, else from a recap that publishes to RSS", () => {
    const settings = { publicUrl: "https://h/", rssHosts: ["h"] };
    const rss = [{ plugin: "@curate/rss" }];
    const telegram = [{ plugin: "@curate/telegram" }];
    expect(
      feedRssFileUrl({ id: "solar", config: { outputs: { stream: { distribute: rss } } } }, settings),
    ).toBe("https://h/rss/solar/rss.xml");
    const digestOnly = {
      id: "weekly",
      config: { outputs: { stream: { distribute: telegram }, recap: [{ id: "w", distribute: rss }] } },
    };
    expect(feedRssFileUrl(digestOnly, settings)).toBe("https://h/rss/weekly/rss.xml");
    expect(
      feedRssFileUrl({ id: "one", config: { outputs: { recap: { id: "r", distribute: rss } } } }, settings),
    ).toBe("https://h/rss/one/rss.xml");
    expect(
      feedRssFileUrl({ id: "none", config: { outputs: { stream: { distribute: telegram } } } }, settings),
    ).toBeNull();
  });

  it("tells platforms by the link's host", () => {
    expect(platformOf("https://www.youtube.com/watch?v=1")).toBe("youtube");
    expect(platformOf("https://old.reddit.com/r/x")).toBe("reddit");
    expect(platformOf("not a url")).toBe("other");
    expect(platformOf("https://youtu.be/abc")).toBe("youtube");
    expect(platformOf("https://twitter.com/a")).toBe("twitter");
    expect(platformOf("https://org.github.io/site")).toBe("github");
    // A look-alike host is not the platform.
    expect(platformOf("https://github.com.evil.example/x")).toBe("other");
    expect(platformOf(null)).toBe("other");
  });

  it("tells the networks Curate reads from by their post addresses", () => {
    expect(platformOf("https://bsky.app/profile/carol.bsky.social/post/3l2k")).toBe("bluesky");
    expect(platformOf("https://fosstodon.org/@bob/113456789")).toBe("mastodon");
    expect(platformOf("https://t.me/e2e_channel/42")).toBe("telegram");
    // A profile page on any host is not a status.
    expect(platformOf("https://blog.example/@bob/about")).toBe("other");
  });
});
