import { describe, expect, it } from "vitest";
import { ApiError } from "#web/lib/api";
import { newestItems, type RssItem, rssErrorText } from "./rss";

const item = (title: string, pubDate: string | null): RssItem => ({
  title,
  link: null,
  description: "",
  pubDate,
  guid: title,
  image: null,
  platform: "other",
  categories: [],
});

describe("the feed's published items", () => {
  it("puts the newest first and undated items last", () => {
    const items = [
      item("undated", null),
      item("older", "Mon, 02 Jun 2025 10:00:00 GMT"),
      item("newer", "Tue, 03 Jun 2025 10:00:00 GMT"),
    ];
    expect(newestItems(items, 9).map((entry) => entry.title)).toEqual(["newer", "older", "undated"]);
    expect(newestItems(items, 1).map((entry) => entry.title)).toEqual(["newer"]);
  });

  it("says the spec's text for each way the RSS file could not be read", () => {
    const answer = (reason: unknown) =>
      new ApiError(503, "x", {
        success: false,
        error: { code: "UNAVAILABLE", message: "x", details: { reason } },
      });
    expect(rssErrorText(answer("invalid-xml"))).toBe("Invalid XML format");
    expect(rssErrorText(answer("invalid-feed"))).toBe("Invalid RSS feed format");
    expect(rssErrorText(answer("fetch-failed"))).toBe("Failed to fetch RSS feed");
    // Anything else (the network, an unknown reason) is a fetch that failed.
    expect(rssErrorText(answer("something-new"))).toBe("Failed to fetch RSS feed");
    expect(rssErrorText(new TypeError("Failed to fetch"))).toBe("Failed to fetch RSS feed");
  });
});
