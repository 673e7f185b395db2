import { describe, expect, it } from "vitest";
import { hasLogFilters, parseLogSearch } from "./filters";

describe("parseLogSearch", () => {
  it("keeps the filters the API takes", () => {
    expect(
      parseLogSearch({
        action: "reject",
        moderator: " @amy ",
        network: "bluesky",
        from: "2026-11-01",
        to: "2026-11-30",
      }),
    ).toEqual({
      action: "reject",
      moderator: "@amy",
      network: "bluesky",
      from: "2026-11-01",
      to: "2026-11-30",
    });
  });

  it("leaves out what the API would refuse, and turns a backwards range around", () => {
    expect(
      parseLogSearch({
        action: "ballot",
        moderator: "  ",
        network: "fax",
        from: "yesterday",
        to: "2026-02-31x",
      }),
    ).toEqual({});
    expect(parseLogSearch({ from: "2026-11-30", to: "2026-11-01" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-30",
    });
    expect(parseLogSearch({ moderator: "m".repeat(300) }).moderator).toHaveLength(200);
  });

  it("says whether any filter is on", () => {
    expect(hasLogFilters({})).toBe(false);
    expect(hasLogFilters({ network: "twitter" })).toBe(true);
  });
});
