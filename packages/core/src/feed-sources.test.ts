import { describe, expect, it } from "vitest";
import { feedSources } from "./feed-sources.ts";

describe("feedSources", () => {
  it("names each configured source by where it reads, each once, in config order", () => {
    expect(
      feedSources([
        { plugin: "@curatedotfun/twitter-source", search: [{ query: "@bot #ai" }] },
        {
          plugin: "rss-source",
          search: [{ url: "https://blog.example/feed.xml" }, { query: "https://www.other.example/atom" }],
        },
        { plugin: "@curate/mastodon-source", search: [{ query: "#ai" }] },
        { plugin: "@curate/x-source" },
        { plugin: "@someone/custom-source" },
      ]),
    ).toEqual([
      { network: "twitter", label: "X (Twitter)", href: null },
      { network: "rss", label: "blog.example", href: "https://blog.example" },
      { network: "rss", label: "other.example", href: "https://www.other.example" },
      { network: "mastodon", label: "Mastodon", href: null },
      { network: null, label: "@someone/custom-source", href: null },
    ]);
  });

  it("has nothing to name for a feed without sources", () => {
    expect(feedSources(undefined)).toEqual([]);
    expect(feedSources([{ plugin: "rss-source" }])).toEqual([
      { network: "rss", label: "RSS feed", href: null },
    ]);
  });
});
