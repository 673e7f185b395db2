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
