// @vitest-environment jsdom
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
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
