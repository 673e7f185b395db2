import type { LogEntry } from "@curate/core";
import { describe, expect, it } from "vitest";
import { describeEntry } from "./entry-view";

const entry = (overrides: Partial<LogEntry>): LogEntry => ({
  feed: "ai",
  seq: 4,
  at: "2026-11-24T10:00:00.000Z",
  action: "approve",
  via: "app",
  network: null,
  prev: "a".repeat(64),
  hash: "b".repeat(64),
  fields: {},
  ...overrides,
});
const field = (value: unknown) => ({ digest: "d".repeat(64), salt: "s".repeat(32), value });

describe("describeEntry", () => {
  it("says who did what to which post, from where, and why", () => {
    const line = describeEntry(
      entry({
        action: "reject",
        via: "reply",
        network: "bluesky",
        fields: {
          actor: field({ account: "amy.near", handle: "amy.bsky.social" }),
          item: field("bluesky:at://post"),
          note: field("off topic"),
        },
      }),
    );
    expect(line).toMatchObject({
      title: "Rejected",
      who: { value: "amy.near as @amy.bsky.social" },
      where: "by post on Bluesky",
      item: { value: "bluesky:at://post" },
      note: { value: "off topic" },
      details: null,
    });
  });

  it('says "via API token" for what a script did with its owner\'s token', () => {
    const line = describeEntry(
      entry({ via: "api_token", fields: { actor: field({ account: "amy.near", handle: null }) } }),
    );
    expect(line).toMatchObject({ title: "Approved", who: { value: "amy.near" }, where: "via API token" });
  });

  it("shortens long implicit accounts, keeping them whole for a tooltip", () => {
    const account = "62a611b472d89b0e5fc93c069b9f700b4c552d55bc0e87b56008ef17b6b2bebe";
    const line = describeEntry(entry({ fields: { actor: field({ account, handle: null }) } }));
    expect(line.who).toEqual({ value: "62a611b4…b2bebe" });
    expect(line.whoInFull).toBe(account);
  });

  it("says when a part is withheld, and why", () => {
    const line = describeEntry(
      entry({
        fields: {
          actor: { digest: "d".repeat(64), withheld: "private" },
          note: { digest: "d".repeat(64), withheld: "redacted", redactedBy: 9 },
        },
      }),
    );
    expect(line.who).toEqual({ withheld: "private" });
    expect(line.note).toEqual({ withheld: "redacted" });
    expect(line.item).toBeNull();
  });

  it("puts changes, bulk runs, redactions and the genesis in words", () => {
    const details = (action: LogEntry["action"], value: unknown) =>
      describeEntry(entry({ action, fields: { details: field(value) } })).details;
    expect(
      details("approvers_changed", {
        added: { twitter: ["amy"], bluesky: ["cat.bsky.social"] },
        removed: {},
      }),
    ).toBe("Added X: @amy; Bluesky: @cat.bsky.social");
    expect(details("admins_changed", { added: [], removed: ["bob.near"] })).toBe("Removed bob.near");
    expect(
      details("rules_changed", {
        changes: [
          { rule: "blacklist", added: { twitter: ["spammer"] }, removed: {} },
          { rule: "undoWindowSeconds", before: null, after: "600" },
        ],
      }),
    ).toBe("Blacklist: added X: @spammer. undoWindowSeconds: unset → 600");
    expect(details("bulk_run", { action: "approve", posts: 40, search: "zk" })).toBe(
      "Approve 40 pending posts matching “zk”",
    );
    expect(details("redact", { entry: 3, fields: ["note"] })).toBe("Entry #3: note withheld");
    expect(
      describeEntry(entry({ action: "genesis", via: "system", fields: { history: field({ count: 12 }) } }))
        .details,
    ).toBe("Commits to the 12 decisions made before the log began.");
  });
  it("reads votes, the quorum that decided, and promotions with their reason", () => {
    expect(
      describeEntry(
        entry({
          action: "vote",
          fields: { details: field({ vote: "approve", approvals: 1, rejections: 0, required: 2 }) },
        }),
      ),
    ).toMatchObject({ title: "Voted", details: "To approve: 1 of 2 approvals so far" });
    expect(
      describeEntry(
        entry({
          fields: { details: field({ quorum: { required: 2, approvals: ["@a", "@b"], rejections: 1 } }) },
        }),
      ).details,
    ).toBe("Quorum: 2 approvals (@a, @b), 1 rejection");
    expect(
      describeEntry(
        entry({
          action: "promote",
          via: "system",
          fields: {
            details: field({
              approved: 12,
              decided: 13,
              explanation: "12 of 13 approved in the last 30 days",
            }),
          },
        }),
      ),
    ).toMatchObject({ title: "Curator trusted", details: "12 of 13 approved in the last 30 days" });
  });

  it("says whose approver rights were offered, confirmed or declined, and on what record", () => {
    const record = "25 of 25 approved in the last 30 days";
    expect(
      describeEntry(
        entry({
          action: "approver_offered",
          via: "system",
          fields: { details: field({ explanation: record }) },
        }),
      ),
    ).toMatchObject({ title: "Approver rights offered", details: record });
    expect(
      describeEntry(
        entry({
          action: "approver_confirmed",
          fields: { details: field({ curator: "sam", explanation: record }) },
        }),
      ),
    ).toMatchObject({ title: "Approver rights confirmed", details: `sam: ${record}` });
    expect(
      describeEntry(entry({ action: "approver_declined", fields: { details: field({ curator: "kim" }) } })),
    ).toMatchObject({ title: "Approver rights declined", details: "kim" });
  });
});
