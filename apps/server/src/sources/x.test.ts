import { describe, expect, it } from "vitest";
import { xPostText } from "./x.ts";

describe("an X post's text as its author wrote it", () => {
  it("unescapes what X escapes, once", () => {
    expect(xPostText({ id: "1", text: "Q&amp;A: is 3 &lt; 4 &gt; 2? Literal &amp;lt; stays" })).toBe(
      "Q&A: is 3 < 4 > 2? Literal &lt; stays",
    );
  });

  it("puts back the links X shortened, and drops the one that stands for the post's photo", () => {
    expect(
      xPostText({
        id: "2",
        text: "Read https://t.co/abc123 and https://t.co/unknown9 https://t.co/media77",
        entities: {
          urls: [
            { url: "https://t.co/abc123", expanded_url: "https://example.org/a/very/long/article?ref=x" },
            {
              url: "https://t.co/media77",
              expanded_url: "https://x.com/a/status/2/photo/1",
              media_key: "3_1",
            },
          ],
        },
      }),
    ).toBe("Read https://example.org/a/very/long/article?ref=x and https://t.co/unknown9");
  });

  it("takes the whole of a long post, with its own links", () => {
    const long = `${"word ".repeat(70)}https://t.co/long1`;
    expect(
      xPostText({
        id: "3",
        text: `${"word ".repeat(50)}…`,
        note_tweet: {
          text: long,
          entities: { urls: [{ url: "https://t.co/long1", unwound_url: "https://example.org/x" }] },
        },
      }),
    ).toBe(`${"word ".repeat(70)}https://example.org/x`);
  });
});
