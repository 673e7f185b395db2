import { describe, expect, it } from "vitest";
import { listedHandles, moderatorReason, platformKey } from "./moderation-rules.ts";

const feed = {
  createdBy: "Owner.near",
  admins: ["ADMIN.near", 42],
  config: {
    moderation: {
      approvers: { X: ["@Amy_X"], twitter: ["bob"], bluesky: ["carol.bsky.social"], near: ["approver.near"] },
      blacklist: { twitter: ["@Spammer"] },
    },
  },
};

describe("moderatorReason", () => {
  it("recognises the creator, admins and super admins by account, case-insensitively", () => {
    expect(moderatorReason(feed, { nearAccountId: "owner.near" })).toBe("creator");
    expect(moderatorReason(feed, { nearAccountId: "admin.near" })).toBe("admin");
    expect(moderatorReason(feed, { nearAccountId: "someone.near", superAdmin: true })).toBe("super_admin");
  });

  it("recognises an approver by account under any platform, or by a handle of the same platform", () => {
    expect(moderatorReason(feed, { nearAccountId: "Approver.near" })).toBe("approver");
    expect(moderatorReason(feed, { handles: [{ platform: "twitter", handle: "@AMY_x" }] })).toBe("approver");
    expect(moderatorReason(feed, { handles: [{ platform: "x", handle: "Bob" }] })).toBe("approver");
    expect(moderatorReason(feed, { handles: [{ platform: "bluesky", handle: "carol.bsky.social" }] })).toBe(
      "approver",
    );
  });

  it("never lets a handle of one network stand for the same name on another", () => {
    expect(moderatorReason(feed, { handles: [{ platform: "bluesky", handle: "bob" }] })).toBe(
      "not_moderator",
    );
    expect(moderatorReason(feed, { handles: [{ platform: "twitter", handle: "carol.bsky.social" }] })).toBe(
      "not_moderator",
    );
  });

  it("refuses everyone else and copes with malformed lists", () => {
    expect(moderatorReason(feed, { nearAccountId: "stranger.near" })).toBe("not_moderator");
    expect(moderatorReason(feed, {})).toBe("not_moderator");
    const broken = { createdBy: null, admins: null, config: { moderation: { approvers: "broken" } } };
    expect(
      moderatorReason(broken, { nearAccountId: "x.near", handles: [{ platform: "x", handle: "x" }] }),
    ).toBe("not_moderator");
  });
});

describe("listedHandles", () => {
  it("reads one platform's list, x and twitter alike, without @ and case", () => {
    expect([...listedHandles(feed.config, "approvers", "twitter")].sort()).toEqual(["amy_x", "bob"]);
    expect([...listedHandles(feed.config, "blacklist", "X")]).toEqual(["spammer"]);
    expect(listedHandles(null, "approvers", "twitter").size).toBe(0);
  });

  it("keys platforms the same way everywhere", () => {
    expect(platformKey(" X ")).toBe("twitter");
    expect(platformKey("Bluesky")).toBe("bluesky");
  });
});
