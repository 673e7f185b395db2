// @vitest-environment jsdom
import type { QueueHealth as Health } from "@curate/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { queueHealthQueryOptions, queueTone } from "../api";
import { QueueHealth } from "./QueueHealth";

afterEach(cleanup);

const HOUR = 3_600_000;

const health = (overrides: Partial<Health> = {}): Health => ({
  feedId: "ai",
  pendingCount: 12,
  oldestPendingAt: new Date(Date.now() - 9 * HOUR).toISOString(),
  oldestPendingSubmissionId: "1900",
  medianDecisionSeconds: 7200,
  decisionsSampled: 40,
  medianAsOf: "2026-11-27T10:00:00.000Z",
  decideWithinHours: 6,
  overdueCount: 3,
  ...overrides,
});

function show(data: Health, compact = false) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  client.setQueryData(queueHealthQueryOptions("ai").queryKey, data);
  // The panel links to the oldest post: a router gives the link its address.
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <QueueHealth feedId="ai" compact={compact} /> }),
    history: createMemoryHistory(),
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("QueueHealth", () => {
  it("says a queue past its service level is overdue, with the oldest wait, the median and its time", async () => {
    show(health());
    const panel = await screen.findByTestId("queue-health");
    expect(within(panel).getByText("Past service level")).toBeTruthy();
    expect(within(panel).getByText("9 h")).toBeTruthy();
    expect(within(panel).getByText("3 past the service level")).toBeTruthy();
    expect(within(panel).getByText("2 h")).toBeTruthy();
    expect(within(panel).getByText(/40 decisions, 30 days · as of/)).toBeTruthy();
    expect(within(panel).getByText("6 h")).toBeTruthy();
    const link = within(panel).getByRole("link", { name: "Open the oldest pending post" });
    expect(link.getAttribute("href")).toBe("/submission/1900");
  });

  it("reads clear, within, or without a service level", () => {
    const now = Date.now();
    expect(queueTone(health({ oldestPendingAt: null }), now)).toBe("empty");
    expect(queueTone(health({ oldestPendingAt: new Date(now - HOUR).toISOString() }), now)).toBe("ok");
    expect(queueTone(health({ decideWithinHours: null }), now)).toBe("unknown");
  });

  it("shows one line in the feed header, and no median before the first recomputation", async () => {
    show(
      health({ medianDecisionSeconds: null, medianAsOf: null, oldestPendingAt: null, pendingCount: 0 }),
      true,
    );
    const line = await screen.findByTestId("queue-health-line");
    expect(line.textContent).toContain("Queue clear");
    expect(line.textContent).toContain("0 pending");
    expect(line.textContent).not.toContain("median");
    expect(line.textContent).toContain("aims for 6 h");
  });
});
