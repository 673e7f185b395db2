import type { BulkRun } from "@curate/core";
import { describe, expect, it } from "vitest";
import { bulkRunSummary } from "./mutations";

const run = (patch: Partial<BulkRun>): BulkRun => ({
  id: "r1",
  feedId: "f",
  action: "approve",
  note: null,
  query: null,
  platform: null,
  requestedBy: "mod.near",
  state: "completed",
  total: 5000,
  decided: 4990,
  alreadyDecided: 0,
  failed: 0,
  undoUntil: null,
  undoMissed: false,
  undone: 0,
  error: null,
  createdAt: "2026-11-24T08:00:00.000Z",
  startedAt: "2026-11-24T08:00:01.000Z",
  finishedAt: "2026-11-24T08:01:00.000Z",
  ...patch,
});

describe("bulkRunSummary", () => {
  it("says what the run decided, what it found decided or gone, and why there is no undo", () => {
    expect(bulkRunSummary(run({}))).toBe("4990 posts approved.");
    expect(bulkRunSummary(run({ action: "reject", decided: 1, alreadyDecided: 7, failed: 2 }))).toBe(
      "1 post rejected. 7 had already been decided. 2 are no longer in this feed.",
    );
    expect(bulkRunSummary(run({ undoMissed: true }))).toBe(
      "4990 posts approved. Undo is not offered: the run took longer than the feed's undo window.",
    );
    expect(bulkRunSummary(run({ state: "failed", decided: 300, error: "database unavailable" }))).toBe(
      "Stopped after deciding 300 of 5000 posts: database unavailable. The rest are still pending.",
    );
  });
});
