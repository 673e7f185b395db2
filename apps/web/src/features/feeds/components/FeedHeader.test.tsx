// @vitest-environment jsdom
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "#web/lib/query-client";
import { FeedHeader } from "./FeedHeader";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The header over the app's own query client (its retry rules), the API answering every feed read with `status`. */
function renderHeader(status: number) {
  const feedReads = vi.fn(
    async () =>
      new Response(JSON.stringify({ success: false, error: { code: "X", message: "Down for a moment" } }), {
        status,
      }),
  );
  vi.stubGlobal("fetch", feedReads);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FeedHeader feedId="solar" topCurators={null} showRecentContent={false} />
    </QueryClientProvider>,
  );
  return feedReads;
}

describe("FeedHeader", () => {
  it("says it is retrying a failing server, twice, then offers to try again", async () => {
    const reads = renderHeader(503);
    expect(screen.getByText("Loading feed data...")).toBeTruthy();
    await screen.findByText("Retrying…");
    await screen.findByText("Error loading feed information.", {}, { timeout: 30_000 });
    expect(reads).toHaveBeenCalledTimes(3);
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("asks once for a feed that does not exist", async () => {
    const reads = renderHeader(404);
    await screen.findByText("Error loading feed information.");
    expect(reads).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("Retrying…")).toBeNull();
  });
});

/** A set-up feed whose only source is a blog's RSS file, on a deployment whose bot listens on Mastodon and Telegram. */
function renderSetUpFeed() {
  const feed = {
    id: "climate",
    name: "Climate Tech",
    description: "Grid and storage news",
    image: null,
    createdBy: "amy.near",
    admins: [],
    config: {
      id: "climate",
      name: "Climate Tech",
      description: "Grid and storage news",
      sources: [
        { plugin: "@curate/rss-source", search: [{ url: "https://www.carbonandcode.org/feed.xml" }] },
      ],
      outputs: { stream: { enabled: true, distribute: [] } },
    },
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
    xSearchWait: null,
    quarantine: null,
  };
  const config = {
    botHandle: "curatedotfun",
    environment: "test",
    devTools: false,
    version: "0.0.0",
    imageUpload: "local",
    publicUrl: "http://127.0.0.1:3000",
    rssHosts: ["127.0.0.1:3000"],
    placeholders: [],
    pluginHosts: [],
    crosspostUrl: "http://127.0.0.1:3001",
    networks: [
      { platform: "mastodon", handle: "curate@social.example" },
      { platform: "telegram", handle: null },
    ],
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const data = String(input).includes("/api/config") ? config : feed;
      return new Response(JSON.stringify({ success: true, data }), {
        headers: { "content-type": "application/json" },
      });
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FeedHeader feedId="climate" topCurators={null} showRecentContent={false} />
    </QueryClientProvider>,
  );
}

describe("FeedHeader: where posts come from", () => {
  it("names the feed's own sources and the networks the bot listens on, never a network it does not read", async () => {
    renderSetUpFeed();
    const origins = await screen.findByTestId("feed-origins");
    const networks = await within(origins).findAllByTestId("feed-submit-network");
    expect(networks.map((badge) => badge.textContent)).toEqual(["Mastodon", "Telegram"]);
    expect(
      within(origins)
        .getAllByTestId("feed-source")
        .map((badge) => badge.textContent),
    ).toEqual(["carbonandcode.org"]);
    expect(origins.textContent?.replace(/\s+/g, " ")).toBe(
      "Curating from carbonandcode.org and mentions on MastodonTelegram",
    );
    expect(within(origins).getByRole("link", { name: "carbonandcode.org" }).getAttribute("href")).toBe(
      "https://www.carbonandcode.org",
    );
    expect(within(origins).getByText("Mastodon").closest("[title]")?.getAttribute("title")).toBe(
      "Mention @curate@social.example with #climate on Mastodon to submit a post",
    );
    expect(screen.queryByText(/X \(Twitter\)/)).toBeNull();
  });
});
