import { parseCommand } from "@curate/core";
import { describe, expect, it } from "vitest";
import { parseLinkHeader } from "../clients/mastodon.ts";
import { hashtagOf, readStatus, statusPost } from "./mastodon.ts";
import { statusText } from "./mastodon-text.ts";

const HOST = "mastodon.social";

function readPost(raw: unknown) {
  const parsed = readStatus(raw);
  if (!parsed) throw new Error("the payload should be a readable status");
  return statusPost(parsed, HOST);
}

/** A status as mastodon.social serves it from /api/v1/statuses/:id (fields intake does not read left out). */
function status(overrides: Record<string, unknown> = {}) {
  return {
    id: "113456789012345678",
    uri: "https://fosstodon.org/users/alice/statuses/113456780000000001",
    url: "https://fosstodon.org/@alice/113456780000000001",
    created_at: "2026-11-20T09:15:42.123Z",
    visibility: "public",
    sensitive: false,
    spoiler_text: "",
    in_reply_to_id: null,
    content:
      '<p>Worth reading: <a href="https://example.com/articles/2026/why-feeds-matter?ref=fedi&amp;lang=en" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="ellipsis">example.com/articles/2026/why-</span><span class="invisible">feeds-matter?ref=fedi&amp;lang=en</span></a></p><p>Thanks <span class="h-card" translate="no"><a href="https://mastodon.social/@bob" class="u-url mention">@<span>bob</span></a></span> &amp; <span class="h-card" translate="no"><a href="https://hachyderm.io/@carol" class="u-url mention">@<span>carol</span></a></span> :blobcat: <a href="https://fosstodon.org/tags/OpenWeb" class="mention hashtag" rel="tag">#<span>OpenWeb</span></a></p>',
    account: {
      id: "109876543210",
      username: "alice",
      acct: "alice@fosstodon.org",
      display_name: "Alice :verified:",
      avatar: "https://files.mastodon.social/cache/accounts/avatars/alice.png",
      url: "https://fosstodon.org/@alice",
    },
    media_attachments: [
      {
        id: "1",
        type: "image",
        url: "https://files.mastodon.social/cache/media_attachments/1/original/chart.png",
        preview_url: "https://files.mastodon.social/cache/media_attachments/1/small/chart.png",
        remote_url: "https://cdn.fosstodon.org/chart.png",
        description: "A chart of feed readers by year",
      },
      {
        id: "2",
        type: "gifv",
        url: "https://files.mastodon.social/cache/media_attachments/2/original/loop.mp4",
        description: null,
      },
      { id: "3", type: "unknown", url: null, remote_url: "https://cdn.fosstodon.org/notes.pdf" },
      { id: "4", type: "image" },
    ],
    mentions: [
      { id: "1", username: "bob", url: "https://mastodon.social/@bob", acct: "bob" },
      { id: "2", username: "carol", url: "https://hachyderm.io/@carol", acct: "carol@hachyderm.io" },
    ],
    tags: [{ name: "openweb", url: "https://mastodon.social/tags/openweb" }],
    emojis: [{ shortcode: "blobcat", url: "https://files.mastodon.social/emoji/blobcat.png" }],
    reblog: null,
    ...overrides,
  };
}

describe("Mastodon status HTML as plain text", () => {
  it("gives full links, full handles, hashtags, decoded entities and shortcodes, paragraphs as blank lines", () => {
    const post = readPost(status());
    expect(post.text).toBe(
      "Worth reading: https://example.com/articles/2026/why-feeds-matter?ref=fedi&lang=en\n\n" +
        "Thanks @bob@mastodon.social & @carol@hachyderm.io :blobcat: #OpenWeb",
    );
  });

  it("keeps line breaks and puts the content warning first", () => {
    const post = readPost(
      status({
        spoiler_text: "US politics & news",
        content: "<p>first line<br />second line<br>third &lt;b&gt;not bold&lt;/b&gt; &#39;quoted&#39;</p>",
        mentions: [],
      }),
    );
    expect(post.text).toBe("US politics & news\n\nfirst line\nsecond line\nthird <b>not bold</b> 'quoted'");
  });

  it("keeps a short link whole and a labelled link's words with its address", () => {
    const text = statusText(
      '<p><a href="https://example.org/a" rel="nofollow noopener"><span class="invisible">https://</span><span class="">example.org/a</span><span class="invisible"></span></a> and <a href="https://example.org/guide">the guide</a> and <a href="javascript:alert(1)">click</a></p>',
      { instanceHost: HOST, mentions: [] },
    );
    expect(text).toBe("https://example.org/a and the guide (https://example.org/guide) and click");
  });

  it("reads remote servers' markup: lists, quotes, preformatted text, unlisted mentions, no leftover tags", () => {
    const text = statusText(
      '<p>Notes from <a href="https://misskey.io/@dave" class="u-url mention">@dave</a>:</p>\n<ul><li>one</li><li>two</li></ul><blockquote>quoted  text</blockquote><pre><code>a  b\n  c</code></pre><img src="x.png" alt="ignored"><script>alert(1)</script><p>nul\u0000 and bell\u0007 gone</p>',
      { instanceHost: HOST, mentions: [] },
    );
    expect(text).toBe(
      "Notes from @dave@misskey.io:\n\none\ntwo\n\nquoted text\n\na  b\n  c\n\nnul and bell gone",
    );
    expect(text).not.toMatch(/[<>]/);
  });

  it("makes a `!submit` to the bot parse however the instance wrote the bot's handle", () => {
    const post = readPost(
      status({
        content:
          '<p><span class="h-card" translate="no"><a href="https://mastodon.social/@curate" class="u-url mention">@<span>curate</span></a></span> !submit <span class="h-card" translate="no"><a href="https://mastodon.social/@curate" class="u-url mention">@<span>curate</span></a></span> <a href="https://mastodon.social/tags/ai" class="mention hashtag" rel="tag">#<span>ai</span></a> must read</p>',
        mentions: [{ id: "9", username: "curate", url: "https://mastodon.social/@curate", acct: "curate" }],
      }),
    );
    expect(post.text).toBe("@curate@mastodon.social !submit @curate@mastodon.social #ai must read");
    expect(parseCommand(post.text, "curate@mastodon.social")).toEqual({
      kind: "submit",
      feedIds: ["ai"],
      note: "must read",
    });
    // Someone else's bot with the same name on another server is not this one.
    expect(parseCommand(post.text, "curate@other.example")).toBeNull();
  });
});

describe("a Mastodon status as a post", () => {
  it("is identified by its URI, with its author's full handle, display name, avatar and media with alt text", () => {
    const post = readPost(status());
    expect(post).toMatchObject({
      platform: "mastodon",
      id: "https://fosstodon.org/users/alice/statuses/113456780000000001",
      url: "https://fosstodon.org/@alice/113456780000000001",
      authorId: "alice@fosstodon.org",
      authorUsername: "alice@fosstodon.org",
      authorDisplayName: "Alice :verified:",
      authorProfileImage: "https://files.mastodon.social/cache/accounts/avatars/alice.png",
      createdAt: new Date("2026-11-20T09:15:42.123Z"),
    });
    expect(post.media).toEqual([
      {
        url: "https://files.mastodon.social/cache/media_attachments/1/original/chart.png",
        type: "image",
        alt: "A chart of feed readers by year",
      },
      {
        url: "https://files.mastodon.social/cache/media_attachments/2/original/loop.mp4",
        type: "gif",
        alt: null,
      },
      { url: "https://cdn.fosstodon.org/notes.pdf", type: "file", alt: null },
    ]);
  });

  it("gives the instance's own accounts their domain and falls back to the URI without a web address", () => {
    const post = readPost(
      status({
        url: null,
        account: { id: "1", username: "bob", acct: "bob", display_name: "", avatar: null },
      }),
    );
    expect(post.authorUsername).toBe("bob@mastodon.social");
    expect(post.authorDisplayName).toBeNull();
    expect(post.url).toBe(post.id);
  });
});

describe("Mastodon request helpers", () => {
  it("reads the pages around a page from its Link header", () => {
    expect(
      parseLinkHeader(
        '<https://mastodon.social/api/v1/notifications?max_id=34975535&types%5B%5D=mention>; rel="next", <https://mastodon.social/api/v1/notifications?min_id=34975861&types%5B%5D=mention>; rel="prev"',
      ),
    ).toEqual({ maxId: "34975535", minId: "34975861" });
    expect(parseLinkHeader(null)).toEqual({ maxId: null, minId: null });
    expect(parseLinkHeader("<not a url>; rel=next")).toEqual({ maxId: null, minId: null });
  });

  it("takes a hashtag with or without # and refuses anything else", () => {
    expect(hashtagOf("#FediDev")).toBe("FediDev");
    expect(hashtagOf(" café_2026 ")).toBe("café_2026");
    expect(hashtagOf("two words")).toBeNull();
    expect(hashtagOf("../admin")).toBeNull();
    expect(hashtagOf(undefined)).toBeNull();
  });
});
