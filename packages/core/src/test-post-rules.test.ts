import { describe, expect, it } from "vitest";
import { hashtagsOf } from "./commands.ts";
import { validateTestPost } from "./test-post-rules.ts";

// The /test form checks a post with core's rules before sending it; these are the texts it shows next to
// each field and the feeds it offers to open afterwards.
describe("test tweet form", () => {
  it("accepts a submit command from an X handle, with or without @, and an optional post id", () => {
    expect(validateTestPost({ text: "!submit @bot #near", username: "@jane_doe" })).toEqual({});
    expect(
      validateTestPost({ text: "hi", username: "jane", inReplyToStatusId: "1900000000000000001" }),
    ).toEqual({});
  });

  it("names each field that the server would refuse", () => {
    expect(validateTestPost({ text: "   ", username: "not a handle", inReplyToStatusId: "abc" })).toEqual({
      text: "Tweet text is required",
      username: "Username must be an X handle (letters, digits, _; up to 15)",
      inReplyToStatusId: "Reply to post id must be a post id (digits only)",
    });
    expect(validateTestPost({ text: "x".repeat(1001), username: "a".repeat(16) })).toMatchObject({
      text: "Tweet text must be at most 1000 characters",
      username: "Username must be an X handle (letters, digits, _; up to 15)",
    });
  });

  it("finds the feeds a post names, once each and lower-cased, as the server's intake does", () => {
    expect(hashtagsOf("!submit @bot #NEAR #desci worth it #near #test")).toEqual(["near", "desci", "test"]);
    expect(hashtagsOf("no tags, and not an anchor a#b or an entity &#39;")).toEqual([]);
  });
});
