import { describe, expect, it } from "vitest";
import { validateProcessingSearch } from "./search";
import {
  canRetryStep,
  checkInputText,
  contentPreview,
  failedJobsText,
  hasFailedSteps,
  jobsPollInterval,
  PROCESSING_POLL_MS,
  prettyJson,
  rowsPollInterval,
  stepDuration,
  stepsPollInterval,
} from "./view";

describe("contentPreview", () => {
  it("cuts at 100 characters and marks the cut with an ellipsis", () => {
    const long = "a".repeat(150);
    expect(contentPreview(long)).toBe(`${"a".repeat(100)}...`);
    expect(contentPreview("a".repeat(100))).toBe("a".repeat(100));
    expect(contentPreview("short")).toBe("short");
  });
});

describe("polling", () => {
  it("asks for a submission's jobs every 5000 ms while one is waiting or processing", () => {
    expect(PROCESSING_POLL_MS).toBe(5000);
    expect(jobsPollInterval([{ status: "completed" }, { status: "processing" }])).toBe(5000);
    expect(jobsPollInterval([{ status: "pending" }])).toBe(5000);
    expect(jobsPollInterval([{ status: "failed" }, { status: "cancelled" }])).toBe(false);
    expect(jobsPollInterval(undefined)).toBe(false);
  });

  it("asks for a job's steps while one is processing or the job has not finished", () => {
    expect(stepsPollInterval([{ status: "success" }, { status: "processing" }])).toBe(5000);
    expect(stepsPollInterval([{ status: "success" }, { status: "failed" }])).toBe(false);
    expect(stepsPollInterval([], "pending")).toBe(5000);
    expect(stepsPollInterval([{ status: "success" }], "completed")).toBe(false);
  });

  it("asks for the rows while a row's latest job is running", () => {
    const page = (status: "processing" | "completed" | null) => ({
      items: [{ latestJob: status ? { id: "j", status, startedAt: null } : null }],
    });
    expect(rowsPollInterval([page(null), page("processing")])).toBe(5000);
    expect(rowsPollInterval([page(null), page("completed")])).toBe(false);
  });
});

describe("actions", () => {
  it("offers Retry Failed only for jobs that ended with failed steps", () => {
    expect(hasFailedSteps("failed")).toBe(true);
    expect(hasFailedSteps("completed_with_errors")).toBe(true);
    for (const status of ["pending", "processing", "completed", "cancelled"] as const) {
      expect(hasFailedSteps(status)).toBe(false);
    }
  });

  it("offers Retry Step for steps that ran, from their stored input", () => {
    expect(canRetryStep({ status: "failed", input: { a: 1 } })).toBe(true);
    expect(canRetryStep({ status: "success", input: { a: 1 } })).toBe(true);
    expect(canRetryStep({ status: "pending", input: null })).toBe(false);
    expect(canRetryStep({ status: "processing", input: { a: 1 } })).toBe(false);
  });
});

describe("stepDuration", () => {
  it("writes milliseconds under a second and seconds with 2 decimals above", () => {
    expect(
      stepDuration({ startedAt: "2026-01-01T00:00:00.000Z", completedAt: "2026-01-01T00:00:00.123Z" }),
    ).toBe("123ms");
    expect(
      stepDuration({ startedAt: "2026-01-01T00:00:00.000Z", completedAt: "2026-01-01T00:00:01.234Z" }),
    ).toBe("1.23s");
    expect(stepDuration({ startedAt: "2026-01-01T00:00:00.000Z", completedAt: null })).toBeNull();
  });
});

describe("the Input pane", () => {
  it("shows values as indented JSON that parses back, strings included", () => {
    expect(prettyJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson("text")).toBe('"text"');
    expect(prettyJson(null)).toBe("");
  });

  it("accepts JSON only, with the parse message for anything else", () => {
    expect(checkInputText('{"a": 1}')).toEqual({ ok: true });
    expect(checkInputText("   ")).toEqual({ ok: false, message: null });
    const broken = checkInputText('{"a": }');
    expect(broken.ok).toBe(false);
    expect(broken.ok ? "" : broken.message).toMatch(/JSON|token/i);
  });
});

describe("failedJobsText", () => {
  it("counts the failed jobs of the last day", () => {
    expect(failedJobsText(1)).toBe("1 failed job in the last 24 h");
    expect(failedJobsText(3)).toBe("3 failed jobs in the last 24 h");
  });
});

describe("validateProcessingSearch", () => {
  it("keeps failures=recent and drops anything else", () => {
    expect(validateProcessingSearch({ failures: "recent" })).toEqual({ failures: "recent" });
    expect(validateProcessingSearch({ failures: "all", page: 2 })).toEqual({});
  });
});
