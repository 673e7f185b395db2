import { describe, expect, it } from "vitest";
import { htmlToText } from "./html-text.ts";
import { type FeedEntry, MalformedFeedError, newEntries, readFeed, readFeedCursor } from "./rss.ts";

const NOW = new Date("2026-03-01T12:00:00Z");
const FEED_URL = "https://blog.example.org/feed.xml";

// A WordPress-style RSS 2.0 feed: a double-escaped title, a smart quote as a numeric entity, CDATA markup with a
// script and a link whose text is its own address shortened, a bare numeric guid, an image enclosure and Media RSS.
const WORDPRESS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
  <title>Rollups &amp;amp; Friends</title>
  <link>https://blog.example.org/</link>
  <description>Notes</description>
  <image><url>https://blog.example.org/logo.png</url><title>Rollups</title><link>https://blog.example.org/</link></image>
  <item>
    <title>Sequencers &amp;amp; the road to decentralisation</title>
    <link>https://blog.example.org/2026/02/sequencers/</link>
    <dc:creator><![CDATA[Ada Lovelace]]></dc:creator>
    <pubDate>Sat, 28 Feb 2026 09:30:00 +0000</pubDate>
    <guid isPermaLink="false">4127</guid>
    <description><![CDATA[<p>It&#8217;s time we talked about <strong>shared</strong> sequencing.</p><p>Read <a href="https://research.example.net/papers/shared-sequencing-2026.pdf">research.example.net/papers/shar…</a> or <a href="/about">about us</a>.</p><script>alert("x")</script>]]></description>
    <content:encoded><![CDATA[<p>The full post.</p>]]></content:encoded>
    <enclosure url="https://blog.example.org/wp-content/uploads/diagram.png" length="48213" type="image/png" />
    <media:content url="https://cdn.example.org/hero.jpg" medium="image"><media:description>A relay race baton</media:description></media:content>
  </item>
  <item>
    <title>Short note</title>
    <guid>https://blog.example.org/?p=4100</guid>
    <pubDate>Fri, 27 Feb 2026 18:00:00 GMT</pubDate>
  </item>
  <item><category>uncategorised</category></item>
</channel>
</rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="text">Zero Knowledge Weekly</title>
  <id>tag:zk.example.com,2026:feed</id>
  <link rel="alternate" href="https://zk.example.com/"/>
  <updated>2026-02-28T10:00:00Z</updated>
  <author><name>ZK Weekly team</name></author>
  <icon>/favicon.png</icon>
  <entry>
    <title type="html">Proofs &lt;em&gt;without&lt;/em&gt; trust</title>
    <id>tag:zk.example.com,2026:issue-12</id>
    <link rel="alternate" href="/issues/12"/>
    <link rel="enclosure" type="audio/mpeg" href="https://zk.example.com/audio/12.mp3"/>
    <updated>2026-02-28T10:00:00Z</updated>
    <summary type="html">&lt;p&gt;This week: recursion &amp;amp; folding.&lt;br&gt;Plus a &lt;img src="/img/fold.png" alt="A folded proof"&gt; diagram.&lt;/p&gt;</summary>
  </entry>
  <entry>
    <title>Issue 11: 1 &lt; 2</title>
    <id>tag:zk.example.com,2026:issue-11</id>
    <link href="https://zk.example.com/issues/11"/>
    <published>2026-02-21T10:00:00Z</published>
    <updated>2026-02-22T08:00:00Z</updated>
    <author><name>Grace</name></author>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Lists:</p><ol><li>one</li><li>two</li></ol></div></content>
  </entry>
</feed>`;

const JSON_FEED = JSON.stringify({
  version: "https://jsonfeed.org/version/1.1",
  title: "Micro",
  home_page_url: "https://micro.example.com/",
  authors: [{ name: "Mia", avatar: "https://micro.example.com/mia.jpg" }],
  items: [
    {
      id: "https://micro.example.com/2026/02/28/hello",
      url: "https://micro.example.com/2026/02/28/hello",
      content_html: "<p>Hello &lt;world&gt; &amp; friends</p>",
      content_text: "Hello <world> & friends",
      date_published: "2026-02-28T11:00:00+01:00",
      attachments: [{ url: "https://micro.example.com/v.mp4", mime_type: "video/mp4", title: "Clip" }],
    },
    {
      id: "7",
      title: "A titled post",
      content_html: "<p>A titled post</p><p>With a second paragraph.</p>",
      image: "https://micro.example.com/7.jpg",
      date_published: "2099-01-01T00:00:00Z",
    },
  ],
});

const RDF = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://old.example.net/rss"><title>Old School</title><link>https://old.example.net/</link><description>d</description></channel>
  <item rdf:about="https://old.example.net/story/1">
    <title>Story one</title>
    <link>https://old.example.net/story/1</link>
    <description>Plain &amp;amp; simple</description>
    <dc:date>2026-02-20T08:00:00Z</dc:date>
    <dc:creator>Linus</dc:creator>
  </item>
</rdf:RDF>`;

describe("htmlToText", () => {
  it("reads markup as the text it shows", () => {
    const { text, images } = htmlToText(
      '<h2>Title</h2><p>One&nbsp;&amp; <b>two</b><br>three</p><ul><li>a</li><li>b</li></ul><style>p{}</style><p>See <a href="https://example.com/a/very/long/path">example.com/a/very/lo…</a>, <a href="https://example.com/x">this</a> and <a href="javascript:alert(1)">example.com</a>.</p><img src="/i.png" alt=" pic "><img src="data:image/png;base64,AA">',
      "https://site.example/post/",
    );
    expect(text).toBe(
      "Title\n\nOne\u00a0& two\nthree\n\n- a\n- b\n\nSee https://example.com/a/very/long/path, this and example.com.",
    );
    expect(images).toEqual([{ url: "https://site.example/i.png", alt: "pic" }]);
  });

  it("keeps markup written as text in a <pre> as text and drops characters no document may carry", () => {
    expect(htmlToText("<pre>if (a &lt; b) {\n  go();\n}</pre>\u0000\u202Eevil").text).toBe(
      "if (a < b) {\ngo();\n}\n\nevil",
    );
  });

  it("numbers ordered lists from their start", () => {
    expect(htmlToText('<ol start="3"><li>c</li><li>d</li></ol>').text).toBe("3. c\n4. d");
  });

  it("keeps a tag HTML does not know as the text it is, and strips custom elements as markup", () => {
    expect(htmlToText("Rollups & Vec<T> and <String>s").text).toBe("Rollups & Vec<T> and <String>s");
    expect(htmlToText("<p>Vec<Vec<u8>> is <b>fine</b></p>").text).toBe("Vec<Vec<u8>> is fine");
    expect(htmlToText("<my-card>Card <T></T> text</my-card>").text).toBe("Card <T></T> text");
    expect(htmlToText("<p>a<T>b</p><p>c</p>").text).toBe("a<T>b\n\nc");
  });
});

describe("readFeed", () => {
  it("reads an RSS 2.0 item as its author wrote it, qualifying a bare guid by the feed", () => {
    const read = readFeed(WORDPRESS, FEED_URL, NOW);
    expect(read.skipped).toBe(1);
    const [first, second] = read.entries.map((entry) => entry.post);
    expect(first).toEqual({
      platform: "rss",
      id: `${FEED_URL}#4127`,
      text: "Sequencers & the road to decentralisation\n\nIt\u2019s time we talked about shared sequencing.\n\nRead https://research.example.net/papers/shared-sequencing-2026.pdf or about us.",
      authorId: "https://blog.example.org/",
      authorUsername: "Ada Lovelace",
      authorDisplayName: "Ada Lovelace",
      authorProfileImage: "https://blog.example.org/logo.png",
      media: [
        { url: "https://blog.example.org/wp-content/uploads/diagram.png", type: "image", alt: null },
        { url: "https://cdn.example.org/hero.jpg", type: "image", alt: "A relay race baton" },
      ],
      url: "https://blog.example.org/2026/02/sequencers/",
      createdAt: new Date("2026-02-28T09:30:00Z"),
    });
    // No link: a permalink guid is the address; no author: the feed's title is.
    expect(second).toMatchObject({
      id: "https://blog.example.org/?p=4100",
      url: "https://blog.example.org/?p=4100",
      text: "Short note",
      authorUsername: "Rollups & Friends",
    });
  });

  it("reads Atom text constructs by their type and resolves relative links against the feed's site", () => {
    const read = readFeed(ATOM, "https://zk.example.com/atom.xml", NOW);
    expect(read.skipped).toBe(0);
    const [latest, older] = read.entries;
    expect(latest.post).toMatchObject({
      id: "tag:zk.example.com,2026:issue-12",
      text: "Proofs without trust\n\nThis week: recursion & folding.\nPlus a diagram.",
      url: "https://zk.example.com/issues/12",
      authorUsername: "ZK Weekly team",
      authorProfileImage: "https://zk.example.com/favicon.png",
      media: [
        { url: "https://zk.example.com/audio/12.mp3", type: "audio", alt: null },
        { url: "https://zk.example.com/img/fold.png", type: "image", alt: "A folded proof" },
      ],
    });
    expect(older.post).toMatchObject({
      text: "Issue 11: 1 < 2\n\nLists:\n\n1. one\n2. two",
      authorUsername: "Grace",
      createdAt: new Date("2026-02-21T10:00:00Z"),
    });
    expect(older.date).toBe("2026-02-21T10:00:00.000Z");
  });

  it("reads JSON Feed's plain-text fields as text, not markup, and never dates a post after now", () => {
    const read = readFeed(JSON_FEED, "https://micro.example.com/feed.json", NOW);
    const [hello, titled] = read.entries;
    expect(hello.post).toMatchObject({
      id: "https://micro.example.com/2026/02/28/hello",
      text: "Hello <world> & friends",
      authorUsername: "Mia",
      authorProfileImage: "https://micro.example.com/mia.jpg",
      media: [{ url: "https://micro.example.com/v.mp4", type: "video", alt: "Clip" }],
      createdAt: new Date("2026-02-28T10:00:00Z"),
    });
    expect(titled.post).toMatchObject({
      id: "https://micro.example.com/feed.json#7",
      text: "A titled post\n\nWith a second paragraph.",
      url: "https://micro.example.com/",
      media: [{ url: "https://micro.example.com/7.jpg", type: "image", alt: null }],
      createdAt: NOW,
    });
  });

  it("reads RSS 1.0 (RDF) items by their rdf:about", () => {
    const [story] = readFeed(RDF, "https://old.example.net/rss", NOW).entries;
    expect(story.post).toMatchObject({
      id: "https://old.example.net/story/1",
      text: "Story one\n\nPlain & simple",
      authorUsername: "Linus",
      createdAt: new Date("2026-02-20T08:00:00Z"),
    });
  });

  it("names an item without guid or link by a hash of its title and date, stable across reads", () => {
    const doc = `<rss version="2.0"><channel><title>T</title><link>https://t.example/</link><description>d</description><item><title>Only a title</title><pubDate>Sun, 01 Mar 2026 08:00:00 GMT</pubDate></item></channel></rss>`;
    const once = readFeed(doc, "https://t.example/rss", NOW).entries[0].post.id;
    expect(once).toMatch(/^https:\/\/t\.example\/rss#sha256:[0-9a-f]{64}$/);
    expect(readFeed(doc, "https://t.example/rss", NOW).entries[0].post.id).toBe(once);
    const edited = doc.replace("Only a title", "Another title");
    expect(readFeed(edited, "https://t.example/rss", NOW).entries[0].post.id).not.toBe(once);
  });

  it("refuses a document that is not a feed", () => {
    expect(() => readFeed("<!doctype html><html><body>Moved</body></html>", FEED_URL, NOW)).toThrow(
      MalformedFeedError,
    );
    expect(() => readFeed('{"version":"https://jsonfeed.org/version/1.1"', FEED_URL, NOW)).toThrow(
      MalformedFeedError,
    );
  });

  it("bounds an item's text", () => {
    const long = "word ".repeat(5000);
    const doc = `<rss version="2.0"><channel><title>T</title><link>https://t.example/</link><description>d</description><item><guid>https://t.example/1</guid><title>Long</title><description>${long}</description></item></channel></rss>`;
    const [entry] = readFeed(doc, "https://t.example/rss", NOW).entries;
    expect(entry.post.text.length).toBeLessThanOrEqual(10_000);
    expect(entry.post.text.endsWith("word…")).toBe(true);
  });
});

describe("newEntries", () => {
  const entry = (id: string, date: string | null): FeedEntry => ({
    date,
    post: {
      platform: "rss",
      id,
      text: id,
      authorId: "a",
      authorUsername: "a",
      url: "https://t.example/",
      createdAt: new Date(date ?? NOW),
    },
  });

  it("takes every item at first, oldest first, and remembers the newest", () => {
    const entries = [
      entry("c", "2026-02-03T00:00:00.000Z"),
      entry("a", "2026-02-01T00:00:00.000Z"),
      entry("b", "2026-02-02T00:00:00.000Z"),
    ];
    const result = newEntries(entries, undefined, 100);
    expect(result.posts.map((p) => p.id)).toEqual(["a", "b", "c"]);
    expect(result.newest).toEqual({ id: "c", date: "2026-02-03T00:00:00.000Z" });
  });

  it("takes only items dated at or after the newest seen, and the newest of them past the limit", () => {
    const entries = [
      entry("e", "2026-02-05T00:00:00.000Z"),
      entry("d", "2026-02-04T00:00:00.000Z"),
      entry("same-instant", "2026-02-03T00:00:00.000Z"),
      entry("c", "2026-02-03T00:00:00.000Z"),
      entry("b", "2026-02-02T00:00:00.000Z"),
    ];
    const newest = { id: "c", date: "2026-02-03T00:00:00.000Z" };
    expect(newEntries(entries, newest, 100).posts.map((p) => p.id)).toEqual(["same-instant", "d", "e"]);
    expect(newEntries(entries, newest, 2).posts.map((p) => p.id)).toEqual(["d", "e"]);
    expect(newEntries(entries, newest, 100).newest).toEqual({ id: "e", date: "2026-02-05T00:00:00.000Z" });
  });

  it("takes undated items listed above the newest seen", () => {
    const entries = [entry("z", null), entry("y", null), entry("x", null)];
    const result = newEntries(entries, { id: "y", date: null }, 100);
    expect(result.posts.map((p) => p.id)).toEqual(["z"]);
    expect(result.newest).toEqual({ id: "z", date: null });
  });

  it("keeps the newest seen when nothing newer came", () => {
    const newest = { id: "c", date: "2026-02-03T00:00:00.000Z" };
    const result = newEntries(
      [entry("c", "2026-02-03T00:00:00.000Z"), entry("b", "2026-02-02T00:00:00.000Z")],
      newest,
      100,
    );
    expect(result).toEqual({ posts: [], newest });
  });
});

describe("readFeedCursor", () => {
  it("reads what a pass saved and starts afresh on anything else", () => {
    const saved = JSON.stringify({
      etag: '"v1"',
      lastModified: "Sun, 01 Mar 2026 08:00:00 GMT",
      newest: { id: "x", date: null },
    });
    expect(readFeedCursor(saved)).toEqual({
      etag: '"v1"',
      lastModified: "Sun, 01 Mar 2026 08:00:00 GMT",
      newest: { id: "x", date: null },
    });
    expect(readFeedCursor("1893456789012345678")).toEqual({});
    expect(readFeedCursor("not json")).toEqual({});
    expect(readFeedCursor("")).toEqual({});
  });
});
