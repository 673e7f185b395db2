import { describe, expect, it } from "vitest";
import type { RssItem } from "#web/features/feeds/rss";
import {
  activeChips,
  categoriesOf,
  DEFAULT_CONTENT_FILTERS,
  filterContent,
  parseContentSearch,
  toContentSearch,
  withDefaults,
  withoutFilter,
} from "./filters";

const item = (title: string, patch: Partial<RssItem> = {}): RssItem => ({
  title,
  link: `https://x.com/a/status/${title}`,
  description: "",
  pubDate: null,
  guid: title,
  image: null,
  platform: "twitter",
  categories: [],
  ...patch,
});

const items = [
  item("mid", { pubDate: "Tue, 03 Jun 2025 10:00:00 GMT", categories: ["Solar", "grid"] }),
  item("undated", { categories: ["solar"] }),
  item("new", { pubDate: "Wed, 04 Jun 2025 10:00:00 GMT", platform: "github", categories: ["wind"] }),
  item("old", { pubDate: "Mon, 02 Jun 2025 10:00:00 GMT", platform: "youtube" }),
];
const titles = (list: RssItem[]) => list.map((entry) => entry.title);

describe("content filters", () => {
  it("sort newest or oldest first, undated items last either way", () => {
    expect(titles(filterContent(items, DEFAULT_CONTENT_FILTERS))).toEqual(["new", "mid", "old", "undated"]);
    expect(titles(filterContent(items, { ...DEFAULT_CONTENT_FILTERS, sort: "oldest" }))).toEqual([
      "old",
      "mid",
      "new",
      "undated",
    ]);
  });

  it("keep one platform, one category (any case), or both", () => {
    expect(titles(filterContent(items, { ...DEFAULT_CONTENT_FILTERS, platform: "github" }))).toEqual(["new"]);
    expect(titles(filterContent(items, { ...DEFAULT_CONTENT_FILTERS, category: "solar" }))).toEqual([
      "mid",
      "undated",
    ]);
    expect(filterContent(items, { sort: "newest", platform: "reddit", category: "solar" })).toEqual([]);
  });

  it("build the category list from the items, each once, sorted", () => {
    expect(categoriesOf(items)).toEqual(["grid", "Solar", "wind"]);
    expect(categoriesOf([])).toEqual([]);
  });

  it("show a chip per filter away from its default; removing one resets only it", () => {
    const filters = { sort: "oldest", platform: "youtube", category: "grid" } as const;
    expect(activeChips(filters).map((chip) => chip.label)).toEqual([
      "Sort: Oldest First",
      "Platform: youtube",
      "Category: grid",
    ]);
    expect(withoutFilter(filters, "platform")).toEqual({ sort: "oldest", platform: "all", category: "grid" });
    expect(activeChips(DEFAULT_CONTENT_FILTERS)).toEqual([]);
  });

  it("read the address leniently and write only what differs from the defaults", () => {
    expect(parseContentSearch({ sort: "oldest", platform: "reddit", category: "grid" })).toEqual({
      sort: "oldest",
      platform: "reddit",
      category: "grid",
    });
    expect(parseContentSearch({ sort: "sideways", platform: "myspace", category: "x".repeat(101) })).toEqual(
      {},
    );
    expect(parseContentSearch({ platform: ["twitter"], category: 3 })).toEqual({});
    // The networks Curate reads from besides the spec's values.
    expect(parseContentSearch({ platform: "bluesky" })).toEqual({ platform: "bluesky" });
    expect(parseContentSearch({ platform: "telegram" })).toEqual({ platform: "telegram" });
    expect(toContentSearch(withDefaults({}))).toEqual({});
    expect(toContentSearch(withDefaults({ category: "grid" }))).toEqual({ category: "grid" });
  });
});
