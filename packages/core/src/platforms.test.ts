import { describe, expect, it } from "vitest";
import { handleOnPlatform, platformOfKey, splitHandleKey, submissionKey } from "./platforms.ts";

describe("keys per platform", () => {
  it("keeps X's bare ids and handles, so rows stored before other networks keep their keys", () => {
    expect(submissionKey("twitter", "1890000000000000001")).toBe("1890000000000000001");
    expect(platformOfKey("1890000000000000001")).toBe("twitter");
    expect(handleOnPlatform("twitter", "@Alice")).toBe("Alice");
    expect(splitHandleKey("Alice")).toEqual({ platform: "twitter", handle: "Alice" });
  });

  it("prefixes every other network, whose ids carry colons of their own", () => {
    const uri = "at://did:plc:abc/app.bsky.feed.post/3l2k";
    expect(submissionKey("bluesky", uri)).toBe(`bluesky:${uri}`);
    expect(platformOfKey(`bluesky:${uri}`)).toBe("bluesky");
    expect(platformOfKey("telegram:-1001:42")).toBe("telegram");
    expect(handleOnPlatform("mastodon", "@bob@fosstodon.org")).toBe("mastodon:bob@fosstodon.org");
    expect(splitHandleKey("mastodon:bob@fosstodon.org")).toEqual({
      platform: "mastodon",
      handle: "bob@fosstodon.org",
    });
  });

  it("never takes an unknown prefix for a network", () => {
    expect(platformOfKey("https://example.com/item")).toBe("twitter");
    expect(splitHandleKey("weird:name")).toEqual({ platform: "twitter", handle: "weird:name" });
  });
});
