import { describe, expect, it } from "vitest";
import { ApiError } from "#web/lib/api";
import { failureToastText, PROCESSING_TOASTS } from "./mutations";

describe("processing toasts", () => {
  it("say the spec's processing toasts", () => {
    expect(Object.values(PROCESSING_TOASTS).map((toast) => toast.done)).toEqual([
      "Job retry triggered successfully.",
      "Step retry triggered successfully.",
      "Reprocessing job triggered successfully.",
      "Tweak and reprocess triggered successfully.",
    ]);
  });

  it("end a failure with the server's message, or Unknown error", () => {
    const conflict = new ApiError(409, "A job for this submission is still waiting or running.", {
      success: false,
      error: { message: "A job for this submission is still waiting or running.", code: "CONFLICT" },
    });
    expect(failureToastText("retryJob", conflict)).toBe(
      "Failed to retry job: A job for this submission is still waiting or running.",
    );
    expect(failureToastText("retryStep", new Error("Failed to fetch"))).toBe(
      "Failed to retry step: Failed to fetch",
    );
    expect(failureToastText("reprocess", undefined)).toBe("Failed to reprocess job: Unknown error");
    expect(failureToastText("tweak", new Error(""))).toBe("Failed to tweak and reprocess: Unknown error");
  });
});
