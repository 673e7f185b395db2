import type { Feed } from "@curate/core";
import { describe, expect, it } from "vitest";
import { curatorCount, filterMyFeeds } from "./my-feeds";

function feed(id: string, overrides: Partial<Feed["config"]> = {}): Feed {
  return {
    id,
    name: `${id} feed`,
    description: `About ${id}`,
    image: null,
    createdBy: "alice.near",
    admins: [],
    config: {
      id,
      name: `${id} feed`,
      description: `About ${id}`,
      sources: [{ plugin: "@curate/x" }],
      ...overrides,
    },
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

describe("my feeds", () => {
  const feeds = [feed("climate"), feed("gaming", { sources: [] }), feed("desci")];

  it("filters on setup completeness and searches name, id and description", () => {
    expect(filterMyFeeds(feeds, "", "incomplete").map((f) => f.id)).toEqual(["gaming"]);
    expect(filterMyFeeds(feeds, "", "completed").map((f) => f.id)).toEqual(["climate", "desci"]);
    expect(filterMyFeeds(feeds, "  ABOUT DESCI ", "all").map((f) => f.id)).toEqual(["desci"]);
    expect(filterMyFeeds(feeds, "climate", "incomplete")).toEqual([]);
  });

  it("counts every approver handle over all platforms as a curator", () => {
    expect(
      curatorCount(feed("a", { moderation: { approvers: { twitter: ["x", "y"], near: ["z.near"] } } })),
    ).toBe(3);
    expect(curatorCount(feed("b"))).toBe(0);
  });
});
