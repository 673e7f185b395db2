// @vitest-environment jsdom
import type { ProcessingJob } from "@curate/core";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { retryBlockedId } from "../view";
import { JobActions } from "./JobActions";

afterEach(cleanup);

const job = (overrides: Partial<ProcessingJob>): ProcessingJob => ({
  id: "8d759cbb-0000-4000-8000-000000000001",
  kind: "approval",
  submissionId: "1890000000000000001",
  feedId: "solar",
  status: "completed_with_errors",
  idempotencyKey: "approval:1",
  retryOfJobId: null,
  note: null,
  attempts: 1,
  requestedBy: null,
  recapId: null,
  retryBlockedReason: null,
  periodStart: null,
  periodEnd: null,
  startedAt: "2026-11-20T10:00:00.000Z",
  completedAt: "2026-11-20T10:00:05.000Z",
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:05.000Z",
  ...overrides,
});

function renderActions(value: ProcessingJob) {
  const noop = () => undefined;
  render(
    <>
      <JobActions
        job={value}
        stepsOpen={false}
        onViewSteps={noop}
        reprocessing={false}
        onReprocess={noop}
        retrying={false}
        onRetry={noop}
      />
      {value.retryBlockedReason ? <p id={retryBlockedId(value.id)}>{value.retryBlockedReason}</p> : null}
    </>,
  );
  return screen.getByRole("button", { name: /Retry Failed/ }) as HTMLButtonElement;
}

describe("Retry Failed", () => {
  it("is enabled for a job with failed steps that nothing published since", () => {
    expect(renderActions(job({})).disabled).toBe(false);
  });

  it("stays visible but disabled, saying why, once a later job published the failed branches", () => {
    const reason =
      "Nothing left to retry: Discord was published since by job 1a2b3c4d.... Use Reprocess or Tweak to change what is live; re-runs edit it.";
    const button = renderActions(job({ retryBlockedReason: reason }));
    expect(button.disabled).toBe(true);
    expect(button.title).toBe(reason);
    // The reason is the button's description, so a screen reader says why it is off.
    expect(screen.getByRole("button", { name: /Retry Failed/, description: reason })).toBe(button);
  });
});

describe("a dry run's actions", () => {
  it("offer its steps to read and nothing that would run it again", () => {
    const noop = () => undefined;
    render(
      <JobActions
        job={job({ kind: "dry_run", status: "completed_with_errors" })}
        stepsOpen={false}
        onViewSteps={noop}
        reprocessing={false}
        onReprocess={noop}
        retrying={false}
        onRetry={noop}
        onDryRun={noop}
      />,
    );
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual(["View Steps"]);
  });
});
