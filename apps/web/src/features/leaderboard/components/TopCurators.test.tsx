// @vitest-environment jsdom
import type { LeaderboardEntry } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { topCuratorsQueryOptions } from "#web/features/leaderboard/api";
import { TopCurators } from "./TopCurators";

afterEach(cleanup);

const entry = (curatorUsername: string, submissionCount: number, handles?: string[]): LeaderboardEntry => ({
  rank: 1,
  curatorId: curatorUsername,
  curatorUsername,
  handles,
  submissionCount,
  approvalCount: 0,
  rejectionCount: 0,
  feedSubmissions: [],
  userId: null,
  displayName: `@${curatorUsername}`,
  avatarUrl: null,
  score: submissionCount,
});

describe("TopCurators", () => {
  it("names a merged curator's other handles under the one that ranks", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
    client.setQueryData(topCuratorsQueryOptions().queryKey, [
      entry("bluesky:dana.bsky.social", 9, ["bluesky:dana.bsky.social", "mastodon:dana@hachyderm.io"]),
      entry("quietalpha", 4),
    ]);
    render(
      <QueryClientProvider client={client}>
        <TopCurators />
      </QueryClientProvider>,
    );
    const [dana, quiet] = within(await screen.findByTestId("top-curators")).getAllByRole("listitem");
    expect(within(dana).getByRole("link", { name: "Bluesky @dana.bsky.social" })).toBeTruthy();
    const others = within(dana).getByTestId("linked-handles");
    expect(
      within(others).getByRole("link", { name: "Mastodon @dana@hachyderm.io" }).getAttribute("href"),
    ).toBe("https://hachyderm.io/@dana");
    expect(within(quiet).queryByTestId("linked-handles")).toBeNull();
  });

  it("ranks by reputation score when asked, showing each score out of 100", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
    client.setQueryData(topCuratorsQueryOptions().queryKey, [entry("volume", 40), entry("careful", 12)]);
    const reputation = (approvedCount: number, rejectedCount: number, score: number) => ({
      approvedCount,
      rejectedCount,
      retractedCount: 0,
      approvalRate: Math.round((approvedCount / (approvedCount + rejectedCount)) * 100),
      score,
    });
    client.setQueryData(topCuratorsQueryOptions({ sort: "score" }).queryKey, [
      { ...entry("careful", 12), reputation: reputation(11, 1, 0.646) },
      { ...entry("volume", 40), reputation: reputation(20, 20, 0.352) },
    ]);
    render(
      <QueryClientProvider client={client}>
        <TopCurators />
      </QueryClientProvider>,
    );
    const byCounts = within(await screen.findByTestId("top-curators")).getAllByRole("listitem");
    expect(byCounts.map((item) => item.textContent)).toEqual([
      expect.stringContaining("40 points"),
      expect.stringContaining("12 points"),
    ]);
    const score = screen.getByRole("button", { name: "Score" });
    expect(score.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(score);
    expect(score.getAttribute("aria-pressed")).toBe("true");
    const list = await screen.findByTestId("top-curators");
    expect(list.getAttribute("data-sort")).toBe("score");
    const byScore = within(list).getAllByRole("listitem");
    expect(byScore[0].textContent).toContain("careful");
    expect(byScore[0].textContent).toContain("65 score");
    expect(byScore[1].textContent).toContain("35 score");
  });
});
