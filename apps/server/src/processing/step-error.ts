import { PluginError } from "../plugins/types.ts";
import type { StepError } from "./shared.ts";

/** What anything a step threw is recorded as: a plugin's own error as it said, a timeout as retryable. */
export function toStepError(error: unknown): StepError {
  if (error instanceof PluginError) {
    return {
      message: error.message,
      code: error.code,
      retryable: error.retryable,
      ...(error.retryAfterMs ? { retryAfterMs: error.retryAfterMs } : {}),
    };
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return {
      message: "The step took longer than allowed and was stopped.",
      code: "STEP_TIMEOUT",
      retryable: true,
    };
  }
  return {
    message: `The step failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
    code: "STEP_FAILED",
    retryable: false,
  };
}
