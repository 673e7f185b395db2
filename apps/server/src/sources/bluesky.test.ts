import { describe, expect, it } from "vitest";
import { normaliseBlueskyPost, textWithLinks } from "./bluesky.ts";

const AMY = "did:plc:ewvi7nxzyoun6zhxrhs64oiz";
const BOB = "did:plc:z72i7hdynmk6r22z27h6tvur";

const link = (byteStart: number, byteEnd: number, uri: string) => ({
  $type: "app.bsky.richtext.facet",
  index: { byteStart, byteEnd },
  features: [{ $type: "app.bsky.richtext.facet#link", uri }],
});

/** A notification for a post, as listNotifications sends it (the record, no embed view). */
function notification(record: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return {
    uri: `at://${AMY}/app.bsky.feed.post/3lbqta5lnck2i`,
    cid: "bafyreibpmcjuwgckx2ztvvxzlvlsgiesrg46qfdw7vytoo4xwxpbtjqhiq",
    author: {
      did: AMY,
      handle: "amy.bsky.social",
      displayName: "Amy 🌱",
      avatar: `https://cdn.bsky.app/img/avatar/plain/${AMY}/bafkreihwihm6kpd6zuwhhlro75p5qks5qtrcu55jp3gddbfjsieiv7wuka@jpeg`,
      labels: [],
    },
    reason: "mention",
    record: { $type: "app.bsky.feed.post", createdAt: "2026-11-20T09:15:02.117Z", langs: ["en"], ...record },
    isRead: false,
    indexedAt: "2026-11-20T09:15:02.541Z",
    labels: [],
    ...overrides,
  };
}

describe("Bluesky text: facets to plain text with full links", () => {
  it("puts a link's full URI in place of its shortened text after emoji, counting UTF-8 bytes", () => {
    const text = "🦋 Big news 👩‍💻: example.com/articles/2026/lo... read it, via @amy.bsky.social #AI";
    const facets = [
      link(27, 58, "https://example.com/articles/2026/long-form-curation-on-every-network?utm=bsky"),
      {
        index: { byteStart: 72, byteEnd: 88 },
        features: [{ $type: "app.bsky.richtext.facet#mention", did: AMY }],
      },
      {
        index: { byteStart: 89, byteEnd: 92 },
        features: [{ $type: "app.bsky.richtext.facet#tag", tag: "AI" }],
      },
    ];
    expect(textWithLinks(text, facets)).toBe(
      "🦋 Big news 👩‍💻: https://example.com/articles/2026/long-form-curation-on-every-network?utm=bsky read it, via @amy.bsky.social #AI",
    );
  });

  it("keeps a link's own words and gives the link after them; a full link stays as it is", () => {
    const text = "Café notes → read this and https://blog.example.org/p/1";
    const facets = [
      link(16, 25, "https://notes.example.net/cafe"),
      link(30, 58, "https://blog.example.org/p/1"),
    ];
    expect(textWithLinks(text, facets)).toBe(
      "Café notes → read this (https://notes.example.net/cafe) and https://blog.example.org/p/1",
    );
  });

  it("ignores facets that cut a character in two or run past the text", () => {
    const text = "🦋 example.com/x...";
    expect(textWithLinks(text, [link(2, 21, "https://example.com/xyz")])).toBe(text);
    expect(textWithLinks(text, [link(5, 400, "https://example.com/xyz")])).toBe(text);
    expect(textWithLinks(text, [link(5, 21, "https://example.com/xyz")])).toBe("🦋 https://example.com/xyz");
  });
});

describe("normaliseBlueskyPost", () => {
  it("reads a notification's record: author, link facets, reply parent, record time and bsky.app URL", () => {
    const parent = `at://${BOB}/app.bsky.feed.post/3lbqsz2vwzk2c`;
    const post = normaliseBlueskyPost(
      notification({
        text: "!submit @curatebot.bsky.social #ai see bsky.app/profile/bob.te...",
        facets: [link(39, 65, "https://bsky.app/profile/bob.test/post/3lbqsz2vwzk2c")],
        reply: {
          root: { uri: parent, cid: "bafyreig3ecmaxmudhcdtb5ykmbbmdmyvp3ooesfcxnzd7g3f3knqupzgdu" },
          parent: { uri: parent, cid: "bafyreig3ecmaxmudhcdtb5ykmbbmdmyvp3ooesfcxnzd7g3f3knqupzgdu" },
        },
      }),
    );
    expect(post).toEqual({
      platform: "bluesky",
      id: `at://${AMY}/app.bsky.feed.post/3lbqta5lnck2i`,
      text: "!submit @curatebot.bsky.social #ai see https://bsky.app/profile/bob.test/post/3lbqsz2vwzk2c",
      authorId: AMY,
      authorUsername: "amy.bsky.social",
      authorDisplayName: "Amy 🌱",
      authorProfileImage: expect.stringContaining(`/avatar/plain/${AMY}/`),
      media: [],
      url: "https://bsky.app/profile/amy.bsky.social/post/3lbqta5lnck2i",
      createdAt: new Date("2026-11-20T09:15:02.117Z"),
      inReplyToId: parent,
    });
  });

  it("takes images and their alt text from a post view, quoted posts with media included", () => {
    const view = (embed: Record<string, unknown>) =>
      normaliseBlueskyPost({ ...notification({ text: "Two charts" }), embed })?.media;
    const images = {
      $type: "app.bsky.embed.images#view",
      images: [
        {
          thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${AMY}/bafkreia1@jpeg`,
          fullsize: `https://cdn.bsky.app/img/feed_fullsize/plain/${AMY}/bafkreia1@jpeg`,
          alt: "Bar chart: adoption by network, Bluesky first",
          aspectRatio: { width: 1600, height: 900 },
        },
        {
          thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${AMY}/bafkreib2@jpeg`,
          fullsize: `https://cdn.bsky.app/img/feed_fullsize/plain/${AMY}/bafkreib2@jpeg`,
          alt: "",
        },
      ],
    };
    const expected = [
      {
        url: `https://cdn.bsky.app/img/feed_fullsize/plain/${AMY}/bafkreia1@jpeg`,
        type: "image",
        alt: "Bar chart: adoption by network, Bluesky first",
      },
      { url: `https://cdn.bsky.app/img/feed_fullsize/plain/${AMY}/bafkreib2@jpeg`, type: "image", alt: null },
    ];
    expect(view(images)).toEqual(expected);
    expect(
      view({
        $type: "app.bsky.embed.recordWithMedia#view",
        record: {
          $type: "app.bsky.embed.record#view",
          record: { $type: "app.bsky.embed.record#viewNotFound" },
        },
        media: images,
      }),
    ).toEqual(expected);
  });

  it("serves a record's image blobs from Bluesky's CDN when there is no view", () => {
    const cid = "bafkreihwihm6kpd6zuwhhlro75p5qks5qtrcu55jp3gddbfjsieiv7wuka";
    const post = normaliseBlueskyPost(
      notification({
        text: "!submit @curatebot.bsky.social this photo",
        embed: {
          $type: "app.bsky.embed.recordWithMedia",
          record: {
            $type: "app.bsky.embed.record",
            record: { uri: `at://${BOB}/app.bsky.feed.post/3l`, cid },
          },
          media: {
            $type: "app.bsky.embed.images",
            images: [
              {
                alt: "A heron on a post",
                image: { $type: "blob", ref: { $link: cid }, mimeType: "image/jpeg", size: 204800 },
              },
            ],
          },
        },
      }),
    );
    expect(post?.media).toEqual([
      {
        url: `https://cdn.bsky.app/img/feed_fullsize/plain/${AMY}/${cid}@jpeg`,
        type: "image",
        alt: "A heron on a post",
      },
    ]);
  });

  it("links by DID when the handle no longer resolves", () => {
    const post = normaliseBlueskyPost(
      notification({ text: "hello" }, { author: { did: AMY, handle: "handle.invalid" } }),
    );
    expect(post?.url).toBe(`https://bsky.app/profile/${AMY}/post/3lbqta5lnck2i`);
    expect(post?.authorDisplayName).toBeNull();
  });

  it("refuses what is not a well-formed post", () => {
    const good = notification({ text: "fine" });
    expect(normaliseBlueskyPost(good)).not.toBeNull();
    const broken = [
      notification({ text: undefined }),
      notification({ text: "no time", createdAt: "yesterday" }),
      notification({ text: "a like", $type: "app.bsky.feed.like" }),
      notification({ text: "x".repeat(10_001) }),
      { ...good, uri: `at://${AMY}/app.bsky.feed.repost/3lbqta5lnck2i` },
      { ...good, author: { ...good.author, did: BOB } },
      { ...good, author: { did: AMY } },
      { ...good, record: "text" },
      null,
      "at://nothing",
    ];
    for (const entry of broken) expect(normaliseBlueskyPost(entry)).toBeNull();
  });
});
