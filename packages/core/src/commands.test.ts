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

describe("where a command stands", () => {
  it("reads `@bot !submit` as well as `!submit @bot`, after other leading mentions too", () => {
    const expected = { kind: "submit", feedIds: ["ai"], note: "must read" };
    for (const text of [
      "!submit @curatebot #ai must read",
      "@curatebot !submit #ai must read",
      "@alice @curatebot !submit #ai must read",
      "@alice !submit @curatebot #ai must read",
      "  @CurateBot: !Submit #AI must read",
    ]) {
      expect(parseCommand(text, "curatebot"), text).toEqual(expected);
    }
    expect(parseCommand("@curate.bsky.social !submit #ai", "curate.bsky.social")?.kind).toBe("submit");
    expect(
      parseCommand("@alice@fosstodon.org @curate@mastodon.social !submit #ai", "curate@mastodon.social")
        ?.kind,
    ).toBe("submit");
    // Leading mentions of others only: the bot is not asked.
    expect(parseCommand("@alice !submit #ai", "curatebot")).toBeNull();
    expect(parseCommand("@curatebot2 !submit #ai", "curatebot")).toBeNull();
  });

  it("takes no command quoted further into a text", () => {
    for (const text of [
      'To curate, reply "!submit @curatebot #ai" to any post',
      "@alice try !submit @curatebot #ai on it",
      "@curatebot great thread !submit #ai",
      "Moderators answer with !approve or !reject",
      "@curatebot see the docs: !link CUR-AB23CD45",
    ]) {
      expect(parseCommand(text, "curatebot"), text).toBeNull();
    }
    expect(parseCommand("a group chat line !submit #ai", "curate_bot", { mentionOptional: true })).toBeNull();
  });

  it("reads approve, reject and link after leading mentions, on every network", () => {
    expect(parseCommand("@dan @curate@mastodon.test !approve #ai nice find", "curate@mastodon.test")).toEqual(
      {
        kind: "approve",
        feedIds: ["ai"],
        note: "nice find",
      },
    );
    expect(parseCommand("@curate_bot !reject #rust spam", "curate_bot", { mentionOptional: true })).toEqual({
      kind: "reject",
      feedIds: ["rust"],
      note: "spam",
    });
    expect(parseCommand("@alice @curatebot !link CUR-AB23CD45", "curatebot")).toEqual({
      kind: "link",
      code: "CUR-AB23CD45",
    });
  });

  it("keeps web addresses whole: what looks like a mention or hashtag inside one is part of it", () => {
    expect(
      parseCommand(
        "@curate.bsky.social !approve https://social.example/@alice/113000000000000001 lovely",
        "curate.bsky.social",
      ),
    ).toEqual({
      kind: "approve",
      feedIds: [],
      note: "https://social.example/@alice/113000000000000001 lovely",
    });
    expect(
      parseCommand("!submit @curatebot #ai see https://example.com/#intro and @bob", "curatebot"),
    ).toEqual({
      kind: "submit",
      feedIds: ["ai"],
      note: "see https://example.com/#intro and",
    });
  });
});
