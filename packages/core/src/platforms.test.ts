import { describe, expect, it } from "vitest";
import {
  authorUrl,
  curatorFields,
  displayHandle,
  handleOnPlatform,
  moderatorFields,
  networkName,
  platformOfKey,
  profileUrl,
  splitHandleKey,
  submissionKey,
} from "./platforms.ts";

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

describe("profileUrl", () => {
  it("links X and Bluesky handles to their profiles, without a leading @", () => {
    expect(profileUrl("twitter", "@Alice")).toBe("https://x.com/Alice");
    expect(profileUrl("bluesky", "carol.bsky.social")).toBe("https://bsky.app/profile/carol.bsky.social");
  });

  it("links a Mastodon handle to its own instance, and nothing without one", () => {
    expect(profileUrl("mastodon", "bob@Fosstodon.org")).toBe("https://fosstodon.org/@bob");
    expect(profileUrl("mastodon", "@bob@fosstodon.org")).toBe("https://fosstodon.org/@bob");
    expect(profileUrl("mastodon", "bob")).toBeNull();
    expect(profileUrl("mastodon", "bob@localhost")).toBeNull();
    expect(profileUrl("mastodon", "bob@evil.example/path")).toBeNull();
  });

  it("links Telegram only for what can be a public username", () => {
    expect(profileUrl("telegram", "e2e_channel")).toBe("https://t.me/e2e_channel");
    expect(profileUrl("telegram", "Dana")).toBeNull();
    expect(profileUrl("telegram", "Solar News")).toBeNull();
    expect(profileUrl("telegram", "-1001234567")).toBeNull();
    expect(profileUrl("telegram", "trailing_")).toBeNull();
  });

  it("never links RSS authors, nor an empty handle", () => {
    expect(profileUrl("rss", "Jane Doe")).toBeNull();
    expect(profileUrl("bluesky", " @ ")).toBeNull();
  });
});

describe("displayHandle", () => {
  it("writes handles with an @, RSS names as they are", () => {
    expect(displayHandle("mastodon", "bob@fosstodon.org")).toBe("@bob@fosstodon.org");
    expect(displayHandle("rss", "Jane Doe")).toBe("Jane Doe");
  });
});

describe("people and places as the app names them", () => {
  it("spells a stored curator key out as network, handle and profile", () => {
    expect(curatorFields("mastodon:mo@social.example")).toEqual({
      curatorNetwork: "mastodon",
      curatorHandle: "mo@social.example",
      curatorProfileUrl: "https://social.example/@mo",
    });
    expect(curatorFields("alice")).toEqual({
      curatorNetwork: "twitter",
      curatorHandle: "alice",
      curatorProfileUrl: "https://x.com/alice",
    });
    expect(curatorFields(null)).toEqual({
      curatorNetwork: null,
      curatorHandle: null,
      curatorProfileUrl: null,
    });
  });

  it("keeps a NEAR moderator an account, and a handle moderator a person on their network", () => {
    expect(moderatorFields("amy.near", "near")).toEqual({
      moderatorNetwork: null,
      moderatorHandle: "amy.near",
      moderatorProfileUrl: null,
    });
    expect(moderatorFields("telegram:tg_cur", "platform_username")).toEqual({
      moderatorNetwork: "telegram",
      moderatorHandle: "tg_cur",
      moderatorProfileUrl: "https://t.me/tg_cur",
    });
  });

  it("names a blog post's site where a network post names its network", () => {
    expect(networkName("mastodon", "https://social.example/@mo/1")).toBe("Mastodon");
    expect(networkName("rss", "https://www.carbonandcode.org/posts/grid")).toBe("carbonandcode.org");
    expect(networkName("rss", null)).toBe("RSS");
    expect(authorUrl("bluesky", "carol.bsky.social", null)).toBe(
      "https://bsky.app/profile/carol.bsky.social",
    );
    expect(authorUrl("rss", "Hana Sato", "https://www.carbonandcode.org/posts/grid")).toBe(
      "https://www.carbonandcode.org",
    );
    expect(authorUrl("rss", "Hana Sato", "javascript:alert(1)")).toBeNull();
  });
});
