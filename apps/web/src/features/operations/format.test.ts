import { describe, expect, it } from "vitest";
import { formatRate, formatSeconds, isHighRate, sourceLabel, untilText } from "./format";

describe("the Operations page's formats", () => {
  it("says durations in the largest units that fit", () => {
    expect(formatSeconds(0)).toBe("0 s");
    expect(formatSeconds(59.4)).toBe("59 s");
    expect(formatSeconds(61)).toBe("1 min");
    expect(formatSeconds(3600)).toBe("1 h");
    expect(formatSeconds(3600 + 5 * 60)).toBe("1 h 5 min");
    expect(formatSeconds(2 * 86_400 + 4 * 3600)).toBe("2 d 4 h");
    expect(formatSeconds(-5)).toBe("0 s");
  });

  it("gives rates the precision they deserve", () => {
    expect(formatRate(0)).toBe("0%");
    expect(formatRate(0.07)).toBe("7%");
    expect(formatRate(2 / 3)).toBe("67%");
    expect(formatRate(1 / 30)).toBe("3.3%");
    expect(formatRate(1)).toBe("100%");
  });

  it("warns about a rate only over enough steps", () => {
    expect(isHighRate({ failed: 2, total: 2 })).toBe(false);
    expect(isHighRate({ failed: 3, total: 6 })).toBe(true);
    expect(isHighRate({ failed: 2, total: 6 })).toBe(false);
  });

  it("names feed searches in words", () => {
    expect(sourceLabel("feed:ai:0:1")).toBe("ai · source 1, search 2");
    expect(sourceLabel("feed:ai:1:news")).toBe("ai · source 2, search news");
    expect(sourceLabel("x:mentions:curatedotfun")).toBe("x:mentions:curatedotfun");
  });

  it("counts down to a time to come", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(untilText("2026-01-01T12:12:00Z", now)).toBe("in 12 min");
    expect(untilText("2026-01-01T11:59:00Z", now)).toBe("due");
  });
});
