import { describe, expect, it } from "vitest";
import { EMPTY_WIZARD_DRAFT, reviveDraft } from "./draft-store";
import { validateBasicInformation } from "./validation";

describe("reviveDraft", () => {
  it("restores a stored draft and repairs fields of the wrong type", () => {
    expect(
      reviveDraft({
        name: "Solar",
        id: 5,
        enabled: "yes",
        approvers: [{ handle: "kim", platform: "Mastodon" }, { nope: true }],
        telegram: { chatId: "@c" },
      }),
    ).toEqual({
      ...EMPTY_WIZARD_DRAFT,
      name: "Solar",
      approvers: [{ handle: "kim", platform: "Twitter" }],
      telegram: { chatId: "@c", messageThreadId: "" },
    });
    expect(reviveDraft("garbage")).toEqual(EMPTY_WIZARD_DRAFT);
  });
});

describe("validateBasicInformation", () => {
  it("gives step 1's messages", () => {
    expect(validateBasicInformation({ name: "ab", description: "too short", id: "" })).toEqual({
      name: "Feed name must be at least 3 characters",
      description: "Description must be at least 10 characters",
      id: "Please provide at least one hashtag",
    });
    expect(validateBasicInformation({ name: "abc", description: "ten chars!", id: "ok" })).toEqual({});
  });
});
