import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { createQueryClient } from "./query-client";

describe("createQueryClient", () => {
  const { retry, retryDelay } = createQueryClient().getDefaultOptions().queries ?? {};
  const retries = retry as (failureCount: number, error: Error) => boolean;
  const delay = retryDelay as (failureCount: number, error: Error) => number;

  it("never asks again after a 4xx: a missing feed is missing at once", () => {
    expect(retries(0, new ApiError(404, "Feed not found", null))).toBe(false);
    expect(retries(0, new ApiError(403, "Forbidden", null))).toBe(false);
  });

  it("asks twice more after a 5xx or a network failure, half a second then a second apart", () => {
    for (const error of [new ApiError(503, "Unavailable", null), new TypeError("Failed to fetch")]) {
      expect([0, 1, 2].map((count) => retries(count, error))).toEqual([true, true, false]);
    }
    const waits = [0, 1].map((count) => delay(count, new TypeError("Failed to fetch")));
    expect(waits).toEqual([500, 1000]);
    expect(waits.reduce((sum, wait) => sum + wait, 0)).toBe(1500);
  });
});
