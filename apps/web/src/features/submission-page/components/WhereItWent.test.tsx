// @vitest-environment jsdom
import type { CurrentUser } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { canModerateQueryOptions } from "#web/features/moderation/api";
import { WhereItWent } from "./SubmissionPage";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const user: CurrentUser = {
  id: 1,
  nearAccountId: "reader.near",
  username: null,
  profileImage: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  superAdmin: false,
};

function renderFor(signedIn: CurrentUser | null, moderates: Record<string, boolean>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  client.setQueryData(currentUserQueryOptions().queryKey, signedIn);
  for (const [feedId, canModerate] of Object.entries(moderates)) {
    client.setQueryData(canModerateQueryOptions(feedId, signedIn?.nearAccountId ?? null).queryKey, {
      canModerate,
      reason: canModerate ? "creator" : null,
    } as never);
  }
  const requests: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      requests.push(String(url));
      return new Response(JSON.stringify({ success: true, data: { items: [], pagination: {} } }));
    }),
  );
  render(
    <QueryClientProvider client={client}>
      <WhereItWent submissionId="post-1" feedIds={Object.keys(moderates)} retractedFeeds={new Set()} />
    </QueryClientProvider>,
  );
  return requests;
}

describe("WhereItWent", () => {
  it("does not ask for the ledger of a signed-in user who moderates none of the post's feeds, and says who may", async () => {
    const requests = renderFor(user, { solar: false, wind: false });
    const notice = await screen.findByTestId("ledger-who-may-see");
    expect(notice.textContent).toBe("Only moderators of #solar or #wind can see where it was published.");
    expect(requests.filter((url) => url.includes("/publications"))).toEqual([]);
  });

  it("asks a signed-out visitor to sign in as one of those moderators", async () => {
    const requests = renderFor(null, { solar: false });
    const notice = await screen.findByTestId("ledger-who-may-see");
    expect(notice.textContent).toBe("Sign in as a moderator of #solar to see where it was published.");
    expect(requests).toEqual([]);
  });

  it("reads the ledger for a moderator of one of them", async () => {
    const requests = renderFor(user, { solar: false, wind: true });
    await screen.findByText("Not published anywhere in the feeds you moderate.");
    expect(requests).toEqual(["/api/submissions/post-1/publications?page=0&limit=20"]);
  });
});
