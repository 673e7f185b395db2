import { describe, expect, it } from "vitest";
import { relativeTime, SUBMISSION_PREVIEW_LENGTH, truncateAtWord } from "./text.ts";

describe("truncateAtWord", () => {
  it("leaves text of 240 characters or fewer untouched", () => {
    const exact = "a".repeat(SUBMISSION_PREVIEW_LENGTH);
    expect(truncateAtWord(exact)).toBe(exact);
    expect(truncateAtWord("short post")).toBe("short post");
  });

  it("cuts longer text at the last word boundary and adds an ellipsis", () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const cut = truncateAtWord(words);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(SUBMISSION_PREVIEW_LENGTH + 1);
    const kept = cut.slice(0, -1);
    expect(words.startsWith(kept)).toBe(true);
    expect(words[kept.length]).toBe(" ");
  });

  it("never ends on a space before the ellipsis", () => {
    const text = `${"abc ".repeat(59)}abcd   ${"x".repeat(20)}`;
    expect(truncateAtWord(text)).not.toMatch(/\s…$/);
  });

  it("cuts a single unbroken word at the limit", () => {
    expect(truncateAtWord("x".repeat(300))).toBe(`${"x".repeat(240)}…`);
  });

  it("honours a custom limit", () => {
    expect(truncateAtWord("one two three", 8)).toBe("one two…");
  });
});

describe("relativeTime", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);

  it.each([
    [0, "just now"],
    [5, "just now"],
    [6, "6s ago"],
    [59, "59s ago"],
    [60, "1m ago"],
    [3599, "59m ago"],
    [3600, "1h ago"],
    [86_399, "23h ago"],
    [86_400, "1d ago"],
    [6 * 86_400, "6d ago"],
    [7 * 86_400, "1w ago"],
    [29 * 86_400, "4w ago"],
    [30 * 86_400, "1mo ago"],
    [364 * 86_400, "12mo ago"],
    [365 * 86_400, "1y ago"],
    [3 * 365 * 86_400, "3y ago"],
  ])("%i s → %s", (seconds, label) => {
    expect(ago(seconds)).toBe(label);
  });

  it("treats future dates as just now and bad dates as empty", () => {
    expect(ago(-100)).toBe("just now");
    expect(relativeTime("not a date", now)).toBe("");
    expect(relativeTime(now.toISOString(), now.getTime())).toBe("just now");
  });
});
