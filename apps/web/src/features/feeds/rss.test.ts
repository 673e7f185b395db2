// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { newestItems, parseRss, platformOf, RSS_INVALID_FEED, RSS_INVALID_XML, rssServiceUrl } from "./rss";

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

describe("RSS helpers", () => {
  it("finds the RSS service URL under either plugin name, ignoring placeholders", () => {
    const hosts = ["h", "rss.partner.example"];
    expect(
      rssServiceUrl([{ plugin: "@curatedotfun/rss", config: { serviceUrl: "https://h/rss/" } }], hosts),
    ).toBe("https://h/rss");
    expect(
      rssServiceUrl([{ plugin: "@curate/rss", config: { serviceUrl: "{{RSS_URL}}" } }], hosts),
    ).toBeNull();
    expect(rssServiceUrl([{ plugin: "@curate/telegram" }], hosts)).toBeNull();
    // Only hosts this deployment reads RSS from: a feed's config cannot send visitors' browsers elsewhere.
    expect(
      rssServiceUrl([{ plugin: "@curate/rss", config: { serviceUrl: "https://evil.example/rss" } }], hosts),
    ).toBeNull();
    expect(
      rssServiceUrl([{ plugin: "@curate/rss", config: { serviceUrl: "javascript:alert(1)//h" } }], hosts),
    ).toBeNull();
  });

  it("tells platforms by the link's host", () => {
    expect(platformOf("https://www.youtube.com/watch?v=1")).toBe("youtube");
    expect(platformOf("https://old.reddit.com/r/x")).toBe("reddit");
    expect(platformOf("not a url")).toBe("other");
  });
});
