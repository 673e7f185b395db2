import { describe, expect, it } from "vitest";
import { canonicalPostUrl, namedPostsIn } from "./post-addresses.ts";

describe("canonicalPostUrl", () => {
  it("rebuilds each network's post address in one form", () => {
    const cases: Array<[string, string]> = [
      [
        "https://twitter.com/Alice/status/1890000000000000001?s=20",
        "https://x.com/Alice/status/1890000000000000001",
      ],
      [
        "http://mobile.x.com/alice/statuses/1890000000000000001/photo/1",
        "https://x.com/alice/status/1890000000000000001",
      ],
      ["https://x.com/i/web/status/1890000000000000001", "https://x.com/i/status/1890000000000000001"],
      [
        "https://bsky.app/profile/Carol.bsky.social/post/3l2k",
        "https://bsky.app/profile/carol.bsky.social/post/3l2k",
      ],
      [
        "https://social.example/@alice/113000000000000001?lang=en",
        "https://social.example/@alice/113000000000000001",
      ],
      [
        "https://social.example/users/alice/statuses/113000000000000001",
        "https://social.example/@alice/113000000000000001",
      ],
      ["https://telegram.me/s/RustReaders/42", "https://t.me/rustreaders/42"],
      ["https://t.me/c/1234567890/42", "https://t.me/c/1234567890/42"],
      ["HTTPS://Blog.Example/posts/1?ref=rss#top", "https://blog.example/posts/1?ref=rss#top"],
    ];
    for (const [written, canonical] of cases) expect(canonicalPostUrl(written), written).toBe(canonical);
    expect(canonicalPostUrl("not an address")).toBe("not an address");
  });
});

describe("namedPostsIn", () => {
  it("finds each address whole, without the sentence's punctuation, with the post's key where it holds one", () => {
    const named = namedPostsIn(
      "!approve https://social.example/@alice/113000000000000001, and (https://x.com/bob/status/77). " +
        "Also https://bsky.app/profile/did:plc:erin/post/3k1!",
      5,
    );
    expect(named).toEqual([
      {
        written: "https://social.example/@alice/113000000000000001",
        url: "https://social.example/@alice/113000000000000001",
        platform: "mastodon",
        key: "mastodon:https://social.example/users/alice/statuses/113000000000000001",
      },
      {
        written: "https://x.com/bob/status/77",
        url: "https://x.com/bob/status/77",
        platform: "twitter",
        key: "77",
      },
      {
        written: "https://bsky.app/profile/did:plc:erin/post/3k1",
        url: "https://bsky.app/profile/did:plc:erin/post/3k1",
        platform: "bluesky",
        key: "bluesky:at://did:plc:erin/app.bsky.feed.post/3k1",
      },
    ]);
    expect(namedPostsIn("https://t.me/c/1234567890/42", 5)[0].key).toBe("telegram:-1001234567890:42");
    expect(namedPostsIn("https://en.wikipedia.org/wiki/Feed_(disambiguation)", 5)[0].written).toBe(
      "https://en.wikipedia.org/wiki/Feed_(disambiguation)",
    );
  });

  it("names at most `max` posts", () => {
    expect(namedPostsIn("https://a.example/1 https://a.example/2 https://a.example/3", 2)).toHaveLength(2);
  });
});
