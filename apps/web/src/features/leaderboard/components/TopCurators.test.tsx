// @vitest-environment jsdom
import type { LeaderboardEntry } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
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
});
