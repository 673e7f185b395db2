import { describe, expect, it } from "vitest";
import { hashtagsIn, validateTestTweet } from "./api";

describe("test tweet form", () => {
  it("accepts a submit command from an X handle, with or without @, and an optional post id", () => {
    expect(validateTestTweet({ text: "!submit @bot #near", username: "@jane_doe" })).toEqual({});
    expect(
      validateTestTweet({ text: "hi", username: "jane", inReplyToStatusId: "1900000000000000001" }),
    ).toEqual({});
  });

  it("names each field that the server would refuse", () => {
    expect(validateTestTweet({ text: "   ", username: "not a handle", inReplyToStatusId: "abc" })).toEqual({
      text: "Tweet text is required",
      username: "Username must be an X handle (letters, digits, _; up to 15)",
      inReplyToStatusId: "Reply to post id must be a post id (digits only)",
    });
    expect(validateTestTweet({ text: "x".repeat(1001), username: "a".repeat(16) })).toMatchObject({
      text: "Tweet text must be at most 1000 characters",
      username: "Username must be an X handle (letters, digits, _; up to 15)",
    });
  });

  it("finds the feeds a post names, once each and lower-cased", () => {
    expect(hashtagsIn("!submit @bot #NEAR #desci worth it #near #test")).toEqual(["near", "desci", "test"]);
    expect(hashtagsIn("no tags")).toEqual([]);
  });
});
