import { describe, expect, it } from "vitest";
import {
  DEFAULT_TRUST,
  quorumOutcome,
  quorumPolicyOf,
  tallyText,
  trustExplanation,
  trustPolicyOf,
  trustVerdict,
} from "./governance-rules.ts";

describe("quorumPolicyOf", () => {
  it("is one approval with a veto when a feed has no quorum", () => {
    expect(quorumPolicyOf({})).toEqual({ approvals: 1, rejection: "veto" });
    expect(quorumPolicyOf({ moderation: { quorum: { approvals: 3, rejection: "majority" } } })).toEqual({
      approvals: 3,
      rejection: "majority",
    });
  });
});

describe("quorumOutcome", () => {
  const veto = { approvals: 3, rejection: "veto" } as const;
  const majority = { approvals: 3, rejection: "majority" } as const;

  it("rejects at the first rejection under a veto, and approves at k approvals", () => {
    expect(quorumOutcome(veto, 2, 0)).toBe("pending");
    expect(quorumOutcome(veto, 2, 1)).toBe("rejected");
    expect(quorumOutcome(veto, 3, 0)).toBe("approved");
  });

  it("waits for k votes under a majority, then follows the larger side", () => {
    expect(quorumOutcome(majority, 0, 2)).toBe("pending");
    expect(quorumOutcome(majority, 1, 2)).toBe("rejected");
    expect(quorumOutcome(majority, 2, 1)).toBe("pending");
    expect(quorumOutcome(majority, 2, 2)).toBe("pending");
    expect(quorumOutcome(majority, 3, 1)).toBe("approved");
  });

  it("decides at the first vote with k = 1, whichever the rule", () => {
    for (const rejection of ["veto", "majority"] as const) {
      expect(quorumOutcome({ approvals: 1, rejection }, 1, 0)).toBe("approved");
      expect(quorumOutcome({ approvals: 1, rejection }, 0, 1)).toBe("rejected");
    }
  });
});

describe("tallyText", () => {
  it("names the approvers, then the rejecters", () => {
    expect(
      tallyText(
        [
          { voter: "@a", action: "approve" },
          { voter: "@b", action: "approve" },
        ],
        3,
      ),
    ).toBe("2 of 3 approvals: @a, @b");
    expect(tallyText([], 2)).toBe("0 of 2 approvals");
    expect(tallyText([{ voter: "@c", action: "reject" }], 2)).toBe("0 of 2 approvals; 1 rejection: @c");
  });
});

describe("trust", () => {
  const policy = { ...DEFAULT_TRUST, minApproved: 10, minApprovalRate: 90, withinDays: 30 };

  it("is off unless enabled", () => {
    expect(trustPolicyOf({})).toBeNull();
    expect(trustPolicyOf({ moderation: { trust: { ...policy, enabled: false } } })).toBeNull();
    expect(trustPolicyOf({ moderation: { trust: policy } })).toMatchObject({ minApproved: 10 });
  });

  it("trusts at N approved and X % of those counted, and explains it", () => {
    const earned = trustVerdict(policy, { approved: 12, decided: 13 }, null);
    expect(earned).toEqual({ trusted: true, reason: "earned" });
    expect(trustExplanation(policy, { approved: 12, decided: 13 }, earned.reason)).toBe(
      "12 of 13 approved in the last 30 days",
    );
    expect(trustVerdict(policy, { approved: 9, decided: 9 }, null).trusted).toBe(false);
    expect(trustVerdict(policy, { approved: 12, decided: 14 }, null).trusted).toBe(false);
  });

  it("lets a pin decide", () => {
    expect(trustVerdict(policy, { approved: 0, decided: 0 }, "trusted")).toEqual({
      trusted: true,
      reason: "pinned_trusted",
    });
    expect(trustVerdict(policy, { approved: 50, decided: 50 }, "untrusted").trusted).toBe(false);
  });
});
