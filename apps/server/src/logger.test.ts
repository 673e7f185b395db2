import { describe, expect, it } from "vitest";
import { boundedForLog } from "./logger.ts";

describe("log lines", () => {
  it("cut long texts, long lists and deep objects, errors included", () => {
    const huge = "x".repeat(20_000_000);
    const line = JSON.stringify(
      boundedForLog({ param: huge, list: Array.from({ length: 10_000 }, (_, i) => i), err: new Error(huge) }),
    );
    expect(line.length).toBeLessThan(10_000);
    expect(line).toContain("(20000000 characters)");
    expect(line).toContain("(10000 items)");
    let deep: unknown = "leaf";
    for (let i = 0; i < 5000; i++) deep = { deep };
    expect(JSON.stringify(boundedForLog(deep)).length).toBeLessThan(200);
  });
});
