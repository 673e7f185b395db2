import { describe, expect, it } from "vitest";
import { hashtagsOf, parseCommand } from "./commands.ts";

describe("parseCommand", () => {
  it("reads a submit with feeds and a note, case-insensitively", () => {
    expect(parseCommand("!SUBMIT @CurateBot #AI #web3 great thread on agents @someone", "curatebot")).toEqual(
      {
        kind: "submit",
        feedIds: ["ai", "web3"],
        note: "great thread on agents",
      },
    );
  });

  it("has no feeds and no note when none are given", () => {
    expect(parseCommand("!submit @curatebot", "curatebot")).toEqual({
      kind: "submit",
      feedIds: [],
      note: null,
    });
  });

  it("needs the bot's own handle, not a longer one", () => {
    expect(parseCommand("!submit @curatebot2 #ai", "curatebot")).toBeNull();
    expect(parseCommand("!submit @other #ai", "curatebot")).toBeNull();
    expect(parseCommand("submit @curatebot #ai", "curatebot")).toBeNull();
  });

  it("reads approve and reject replies with optional feeds and notes", () => {
    expect(parseCommand("@curatebot !approve #ai solid", "curatebot")).toEqual({
      kind: "approve",
      feedIds: ["ai"],
      note: "solid",
    });
    expect(parseCommand("!Reject off-topic", "curatebot")).toEqual({
      kind: "reject",
      feedIds: [],
      note: "off-topic",
    });
    expect(parseCommand("I !approved this", "curatebot")).toBeNull();
  });

  it("de-duplicates hashtags and ignores anchors and emails", () => {
    expect(hashtagsOf("#AI #ai x#notatag page.html#anchor #web3")).toEqual(["ai", "web3"]);
  });
});

describe("commands on every network", () => {
  it("reads a Bluesky or Mastodon bot handle, and no other account whose handle starts the same", () => {
    expect(parseCommand("!submit @curate.bsky.social #ai worth it", "curate.bsky.social")).toEqual({
      kind: "submit",
      feedIds: ["ai"],
      note: "worth it",
    });
    expect(parseCommand("!submit @curate@mastodon.social #ai", "curate@mastodon.social")?.kind).toBe(
      "submit",
    );
    expect(parseCommand("!submit @curate.bsky.social #ai", "curate")).toBeNull();
    expect(parseCommand("!submit @curate@other.host #ai", "curate")).toBeNull();
    expect(parseCommand("!submit @curatebot. #ai", "curatebot")?.kind).toBe("submit");
  });

  it("drops mentions of any shape from the note", () => {
    expect(
      parseCommand("!submit @bot #ai by @alice.bsky.social and @bob@fosstodon.org", "bot"),
    ).toMatchObject({
      note: "by and",
    });
  });

  it("takes `!submit #feed` without the bot's handle only where the source says every message is for the bot", () => {
    expect(parseCommand("!submit #ai a good one", "curate_bot")).toBeNull();
    expect(parseCommand("!submit #ai a good one", "curate_bot", { mentionOptional: true })).toEqual({
      kind: "submit",
      feedIds: ["ai"],
      note: "a good one",
    });
    expect(parseCommand("!submit @curate_bot #ai", "curate_bot", { mentionOptional: true })).toMatchObject({
      note: null,
    });
    expect(parseCommand("not !submitted #ai", "curate_bot", { mentionOptional: true })).toBeNull();
  });
});

describe("!link", () => {
  it("reads a linking code however it is cased, and nothing that merely looks like one", () => {
    expect(parseCommand("@curatebot !link cur-ab23cd45", "curatebot")).toEqual({
      kind: "link",
      code: "CUR-AB23CD45",
    });
    expect(parseCommand("!link CUR-AB23", "curatebot")).toBeNull();
    expect(parseCommand("!linkCUR-AB23CD45", "curatebot")).toBeNull();
  });
});
