import { describe, expect, it } from "vitest";
import { formatDatePattern, formatJobDate, formatStepTime, formatTotal } from "./format";

// Dates are built from local parts, so the expectations hold in every time zone the tests run in.
const afternoon = new Date(2026, 10, 3, 14, 5, 9);
const newYear = new Date(2027, 0, 1, 0, 0, 0);

describe("formatJobDate", () => {
  it('writes "MMM d, yyyy HH:mm:ss" in local time, the day unpadded and the time in 24 hours', () => {
    expect(formatJobDate(afternoon)).toBe("Nov 3, 2026 14:05:09");
    expect(formatJobDate(newYear)).toBe("Jan 1, 2027 00:00:00");
    expect(formatJobDate(new Date(2026, 11, 31, 23, 59, 59))).toBe("Dec 31, 2026 23:59:59");
  });

  it("reads ISO strings and epoch milliseconds", () => {
    expect(formatJobDate(afternoon.toISOString())).toBe("Nov 3, 2026 14:05:09");
    expect(formatJobDate(afternoon.getTime())).toBe("Nov 3, 2026 14:05:09");
  });

  it("gives an empty string for a date that does not parse", () => {
    expect(formatJobDate("not a date")).toBe("");
  });
});

describe("formatStepTime", () => {
  it('writes "HH:mm:ss"', () => {
    expect(formatStepTime(afternoon)).toBe("14:05:09");
    expect(formatStepTime(newYear)).toBe("00:00:00");
  });
});

describe("formatDatePattern", () => {
  it("replaces each token once and leaves other text alone", () => {
    expect(formatDatePattern(afternoon, "d MMM yyyy, HH h mm m ss s")).toBe("3 Nov 2026, 14 h 05 m 09 s");
  });
});

describe("formatTotal", () => {
  it("marks a total counted up to a cap with a plus", () => {
    expect(formatTotal(12345, false)).toBe("12,345");
    expect(formatTotal(1000, true)).toBe("1,000+");
  });
});
