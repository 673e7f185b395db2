import { describe, expect, it } from "vitest";
import { xSearchWaitMessage } from "./x-search-wait";

const at = Date.parse("2031-03-04T10:16:00Z");

describe("xSearchWaitMessage", () => {
  it("says how many searches wait and roughly until when", () => {
    expect(
      xSearchWaitMessage({ searches: 9, since: "2031-03-04T10:01:00Z", until: "2031-03-04T11:00:00Z" }, at),
    ).toBe(
      "9 of this feed's X searches are waiting their turn for the hourly X allowance that every feed on this server shares. They should run in about 44 minutes; new posts from X appear after that.",
    );
  });

  it("says shortly once the time is near or past, and speaks of one search as one", () => {
    expect(
      xSearchWaitMessage({ searches: 1, since: "2031-03-04T10:01:00Z", until: "2031-03-04T10:16:30Z" }, at),
    ).toBe(
      "One of this feed's X searches is waiting its turn for the hourly X allowance that every feed on this server shares. It should run shortly; new posts from X appear after that.",
    );
  });
});
