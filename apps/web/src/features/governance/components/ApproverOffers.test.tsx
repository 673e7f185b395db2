// @vitest-environment jsdom
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "#web/lib/query-client";
import { ApproverOffers } from "./ApproverOffers";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const offer = (curator: string, status: "offered" | "confirmed" | "declined") => ({
  feedId: "solar",
  personKey: `handle:${curator}`,
  curator,
  account: null,
  status,
  explanation: "12 of 12 approved in the last 30 days",
  offeredAt: "2026-11-20T12:00:00.000Z",
  decidedAt: status === "offered" ? null : "2026-11-21T12:00:00.000Z",
  decidedBy: status === "offered" ? null : "owner.near",
});

const envelope = (data: unknown) =>
  new Response(
    JSON.stringify({ success: true, statusCode: 200, timestamp: new Date().toISOString(), data }),
    {
      status: 200,
      headers: { "content-type": "application/json" },
    },
  );

/** The panel over a fake API: the offers listed, the feed as saved, and each answer recorded. */
function renderOffers({ dirty = false } = {}) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push(`${init?.method ?? "GET"} ${new URL(url, "http://localhost").pathname}`);
      if (url.includes("/confirm")) return envelope(offer("sam", "confirmed"));
      if (url.includes("/approver-offers"))
        return envelope({ items: [offer("sam", "offered"), offer("kim", "declined")] });
      return envelope({ id: "solar", name: "Solar", config: { id: "solar" } });
    }),
  );
  const onConfirmed = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ApproverOffers feedId="solar" dirty={dirty} onConfirmed={onConfirmed} />
    </QueryClientProvider>,
  );
  return { calls, onConfirmed };
}

describe("ApproverOffers", () => {
  it("lists the offers with their record, and confirms one: the editor starts again from the saved feed", async () => {
    const { calls, onConfirmed } = renderOffers();
    const items = await screen.findAllByTestId("approver-offer");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining("samWaiting for you12 of 12 approved in the last 30 days"),
      expect.stringContaining("kimDeclined"),
    ]);
    expect(within(items[1]).queryByRole("button")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Confirm sam as an approver" }));
    await waitFor(() => expect(onConfirmed).toHaveBeenCalledWith(expect.objectContaining({ id: "solar" })));
    expect(calls).toContain("POST /api/feeds/solar/approver-offers/handle%3Asam/confirm");
  });

  it("waits for unsaved changes before a confirmation saves the feed", async () => {
    renderOffers({ dirty: true });
    const confirm = await screen.findByRole("button", { name: "Confirm sam as an approver" });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Save or discard your changes on this page first/)).toBeTruthy();
    expect(
      (screen.getByRole("button", { name: "Decline the offer to sam" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});
