import { describe, expect, it } from "vitest";
import { feedRssFileUrl, rssPlatformOf as platformOf, rssServiceUrl } from "./rss-rules.ts";

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
    // Only hosts this deployment reads RSS from: a feed's config cannot send the server elsewhere.
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
