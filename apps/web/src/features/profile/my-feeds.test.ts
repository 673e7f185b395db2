import type { FeedSummary } from "@curate/core";
import { describe, expect, it } from "vitest";
import { filterMyFeeds } from "./my-feeds";

function feed(id: string, complete = true): FeedSummary {
  return {
    id,
    name: `${id} feed`,
    description: `About ${id}`,
    image: null,
    createdBy: "alice.near",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    complete,
    streamEnabled: true,
    approverCount: 0,
    destinations: [],
  };
}

describe("my feeds", () => {
  const feeds = [feed("climate"), feed("gaming", false), feed("desci")];

  it("filters on setup completeness and searches name, id and description", () => {
    expect(filterMyFeeds(feeds, "", "incomplete").map((f) => f.id)).toEqual(["gaming"]);
    expect(filterMyFeeds(feeds, "", "completed").map((f) => f.id)).toEqual(["climate", "desci"]);
    expect(filterMyFeeds(feeds, "  ABOUT DESCI ", "all").map((f) => f.id)).toEqual(["desci"]);
    expect(filterMyFeeds(feeds, "climate", "incomplete")).toEqual([]);
  });
});
