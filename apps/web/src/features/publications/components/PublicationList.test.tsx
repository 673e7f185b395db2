// @vitest-environment jsdom
import type { Publication } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PublicationList } from "./PublicationList";

const entry = (overrides: Partial<Publication>): Publication => ({
  id: "live",
  submissionId: "1890000000000000001",
  feedId: "solar",
  pluginName: "@curate/discord",
  branch: 1,
  branchKey: "@curate/discord|webhook|{{DISCORD_WEBHOOK}}|",
  supersededBy: null,
  channel: "Discord",
  reference: { kind: "discord-message", id: "1300000000000000002", url: null },
  status: "published",
  jobId: "8d759cbb-0000-4000-8000-000000000001",
  stepId: "live",
  publishedAt: "2026-11-20T11:00:00.000Z",
  retractedAt: null,
  retractionJobId: null,
  retractionNote: null,
  ...overrides,
});

const live = entry({});
const older = entry({
  id: "older",
  stepId: "older",
  supersededBy: "live",
  reference: { kind: "discord-message", id: "1300000000000000001", url: null },
  publishedAt: "2026-11-20T10:00:00.000Z",
});

/** The API as the browser reaches it, answering every POST with a created envelope. */
const requests: Array<{ url: string; init: RequestInit }> = [];
beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return new Response(JSON.stringify({ success: true, statusCode: 201, data: {} }), { status: 201 });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderList(items: Publication[], actions = true) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PublicationList items={items} actions={actions ? () => true : undefined} />
    </QueryClientProvider>,
  );
  const [first, second] = screen.getAllByTestId("publication");
  return { first, second };
}

describe("the ledger's copies", () => {
  it("marks an older copy beside the live one and retracts it in one click", async () => {
    const { first, second } = renderList([live, older]);
    expect(within(first).queryByText("Older copy")).toBeNull();
    expect(within(second).getByText("Older copy")).toBeTruthy();
    expect(second.getAttribute("data-older-copy")).toBe("true");
    expect(within(second).getByText(/re-runs edit the newer copy/)).toBeTruthy();
    expect(within(first).queryByRole("button", { name: /Retract this copy/ })).toBeNull();

    fireEvent.click(within(second).getByRole("button", { name: /Retract this copy/ }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0].url).toBe("/api/publications/older/retract");
    expect(requests[0].init.method).toBe("POST");
  });

  it("publishes again as a new post only once the moderator confirms", async () => {
    const { first, second } = renderList([live, older]);
    expect(within(second).queryByRole("button", { name: /Publish again/ })).toBeNull();
    fireEvent.click(within(first).getByRole("button", { name: "Publish again as new post" }));
    const dialog = await screen.findByRole("dialog", { name: "Post a second copy to Discord?" });
    expect(within(dialog).getByText(/readers of #solar see the post twice/)).toBeTruthy();
    expect(requests).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(requests).toHaveLength(0);

    fireEvent.click(within(first).getByRole("button", { name: "Publish again as new post" }));
    fireEvent.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Post a second copy" }),
    );
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0].url).toBe("/api/publications/live/publish-again");
    expect(JSON.parse(String(requests[0].init.body))).toEqual({ confirm: true });
  });

  it("offers no actions on entries no longer published, nor where the list is read only", () => {
    const { first } = renderList([entry({ status: "retracted", retractedAt: "2026-11-21T10:00:00.000Z" })]);
    expect(within(first).queryByRole("button")).toBeNull();
    cleanup();
    const { first: readOnly } = renderList([live], false);
    expect(within(readOnly).queryByRole("button")).toBeNull();
  });
});
