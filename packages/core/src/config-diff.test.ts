import { describe, expect, it } from "vitest";
import { channelsChanged, diffConfigs, MAX_CONFIG_CHANGES } from "./config-diff.ts";

describe("diffConfigs", () => {
  it("names each added, removed and changed leaf by its path, objects by key and arrays by position", () => {
    const before = {
      name: "A",
      moderation: { approvers: { twitter: ["amy", "bob"] } },
      outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss" }] } },
      "odd key": 1,
    };
    const after = {
      name: "B",
      moderation: { approvers: { twitter: ["amy"] } },
      outputs: { stream: { enabled: true, distribute: [{ plugin: "@curate/rss", config: { title: "T" } }] } },
      image: "https://example.com/a.png",
    };
    expect(diffConfigs(before, after)).toEqual({
      count: 5,
      changes: [
        { path: "image", kind: "added", after: "https://example.com/a.png" },
        { path: "moderation.approvers.twitter[1]", kind: "removed", before: "bob" },
        { path: "name", kind: "changed", before: "A", after: "B" },
        { path: '["odd key"]', kind: "removed", before: 1 },
        { path: "outputs.stream.distribute[0].config", kind: "added", after: { title: "T" } },
      ],
    });
    expect(diffConfigs(after, after)).toEqual({ changes: [], count: 0 });
    expect(diffConfigs({ a: [1] }, { a: { 0: 1 } }).changes).toEqual([
      { path: "a", kind: "changed", before: [1], after: { 0: 1 } },
    ]);
  });

  it("keeps at most MAX_CONFIG_CHANGES changes but counts them all", () => {
    const many = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
    const diff = diffConfigs({}, many);
    expect(diff.count).toBe(250);
    expect(diff.changes).toHaveLength(MAX_CONFIG_CHANGES);
  });

  it("tells a save that changes a channel (stream or recap distributors) from one that does not", () => {
    const feed = (distribute: unknown[], recap?: unknown) => ({
      name: "x",
      outputs: { stream: { enabled: true, distribute }, ...(recap ? { recap } : {}) },
    });
    const rss = { plugin: "@curate/rss" };
    expect(channelsChanged(feed([rss]), { ...feed([rss]), name: "y" })).toBe(false);
    expect(channelsChanged(feed([rss]), feed([]))).toBe(true);
    expect(channelsChanged(feed([rss]), feed([{ ...rss, config: { title: "t" } }]))).toBe(true);
    expect(channelsChanged(feed([rss]), feed([{ ...rss, transform: [{ plugin: "x" }] }]))).toBe(false);
    expect(channelsChanged(feed([rss]), feed([rss], [{ id: "w", distribute: [rss] }]))).toBe(true);
  });
});
