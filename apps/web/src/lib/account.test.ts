import { describe, expect, it } from "vitest";
import { shortAccountId } from "./account";

describe("shortAccountId", () => {
  it("shortens implicit accounts for display only", () => {
    expect(shortAccountId("a".repeat(64))).toBe(`${"a".repeat(8)}…${"a".repeat(6)}`);
    expect(shortAccountId("alice.near")).toBe("alice.near");
  });
});
