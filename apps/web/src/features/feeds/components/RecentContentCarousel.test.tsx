// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type RssItem, rssKeys } from "#web/features/feeds/rss";
import { RecentContentCarousel } from "./RecentContentCarousel";

// A retry on mount after the error must not reach the network: it never answers.
beforeEach(() => {
  vi.stubGlobal("fetch", () => new Promise(() => undefined));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const FEED_ID = "solar";

const item = (day: number): RssItem => ({
  title: `Item ${day}`,
  link: `https://x.com/a/status/${day}`,
  description: "",
  pubDate: new Date(Date.UTC(2026, 0, day)).toUTCString(),
  guid: String(day),
  image: null,
  platform: "twitter",
  categories: [],
});

function renderWith(items: RssItem[], error?: Error) {
  const client = new QueryClient();
  client.setQueryData(rssKeys.feed(FEED_ID), items);
  // A refetch that failed: the last items stay in the cache next to the error.
  if (error)
    client
      .getQueryCache()
      .find({ queryKey: rssKeys.feed(FEED_ID) })
      ?.setState({ status: "error", error });
  return render(
    <QueryClientProvider client={client}>
      <RecentContentCarousel feedId={FEED_ID} />
    </QueryClientProvider>,
  );
}

const shownTitles = () => screen.getAllByRole("link").map((link) => link.textContent);

describe("RecentContentCarousel", () => {
  it("shows the 9 newest items, 3 a page, and wraps around both ways", () => {
    // Eleven items in no particular order: the two oldest never show.
    renderWith([5, 1, 11, 7, 2, 9, 3, 10, 4, 8, 6].map(item));
    expect(shownTitles()).toEqual(["Item 11", "Item 10", "Item 9"]);
    expect(screen.getByText("1 / 3")).toBeTruthy();

    const next = screen.getByRole("button", { name: "Next items" });
    fireEvent.click(next);
    expect(shownTitles()).toEqual(["Item 8", "Item 7", "Item 6"]);
    fireEvent.click(next);
    expect(shownTitles()).toEqual(["Item 5", "Item 4", "Item 3"]);
    fireEvent.click(next);
    expect(shownTitles()).toEqual(["Item 11", "Item 10", "Item 9"]);

    fireEvent.click(screen.getByRole("button", { name: "Previous items" }));
    expect(shownTitles()).toEqual(["Item 5", "Item 4", "Item 3"]);
    expect(screen.getAllByRole("link")[0]?.getAttribute("rel")).toContain("noopener");
  });

  it("has no paging for three items or fewer", () => {
    renderWith([item(1), item(2)]);
    expect(shownTitles()).toEqual(["Item 2", "Item 1"]);
    expect(screen.queryByRole("button", { name: "Next items" })).toBeNull();
  });

  it("is not shown at all when reading the RSS file failed, even with items from before, or when it is empty", () => {
    expect(renderWith([item(1), item(2)], new Error("Invalid RSS feed format")).container.innerHTML).toBe("");
    cleanup();
    expect(renderWith([]).container.innerHTML).toBe("");
  });
});
