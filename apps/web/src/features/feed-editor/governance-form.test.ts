import { DEFAULT_TRUST, feedConfigSchema } from "@curate/core";
import { describe, expect, it } from "vitest";
import { governanceErrors, governanceForm, withGovernance } from "./governance-form";

const base = { id: "gov", name: "Gov", description: "A feed" };

describe("the quorum and trust fields", () => {
  it("leave a config without them as it was", () => {
    const form = governanceForm({});
    expect(form).toMatchObject({ quorumApprovals: "", rejection: "veto", trustEnabled: false });
    expect(withGovernance({ undoWindowSeconds: 5 }, form)).toEqual({ undoWindowSeconds: 5 });
  });

  it("write a quorum and a trust policy the contract accepts, and read them back", () => {
    const form = {
      ...governanceForm({}),
      quorumApprovals: "2",
      rejection: "majority" as const,
      trustEnabled: true,
      pinnedTrusted: "alice.near, bluesky:erin.bsky.social",
    };
    const moderation = withGovernance({}, form);
    expect(moderation).toEqual({
      quorum: { approvals: 2, rejection: "majority" },
      trust: {
        enabled: true,
        minApproved: DEFAULT_TRUST.minApproved,
        minApprovalRate: DEFAULT_TRUST.minApprovalRate,
        lastDecided: DEFAULT_TRUST.lastDecided,
        withinDays: DEFAULT_TRUST.withinDays,
        confirmAfterDays: DEFAULT_TRUST.confirmAfterDays,
        pinned: { trusted: ["alice.near", "bluesky:erin.bsky.social"] },
      },
    });
    expect(feedConfigSchema.safeParse({ ...base, moderation }).success).toBe(true);
    expect(governanceForm(moderation)).toEqual(form);
  });

  it("write the higher bar for offering approver rights, both numbers or neither", () => {
    const form = {
      ...governanceForm({}),
      trustEnabled: true,
      offerMinApproved: "25",
      offerMinApprovalRate: "98",
    };
    const moderation = withGovernance({}, form);
    expect(moderation.trust).toMatchObject({ offerApprover: { minApproved: 25, minApprovalRate: 98 } });
    expect(feedConfigSchema.safeParse({ ...base, moderation }).success).toBe(true);
    expect(governanceForm(moderation)).toEqual(form);
    expect(governanceErrors(form)).toBeUndefined();
    expect(governanceErrors({ ...form, offerMinApprovalRate: "" })).toEqual({
      offerMinApprovalRate: "The approval rate must be a whole percentage from 0 to 100",
    });
    expect(withGovernance({}, { ...governanceForm({}), trustEnabled: true }).trust).not.toHaveProperty(
      "offerApprover",
    );
  });

  it("keep a policy turned off, to restore it when turned on again", () => {
    const moderation = withGovernance({}, { ...governanceForm({}), trustEnabled: true, minApproved: "4" });
    const off = withGovernance(moderation, { ...governanceForm(moderation), trustEnabled: false });
    expect(off.trust).toMatchObject({ enabled: false, minApproved: 4 });
    expect(governanceForm(off)).toMatchObject({ trustEnabled: false, minApproved: "4" });
  });

  it("check the numbers with the contract's messages", () => {
    const errors = governanceErrors({
      ...governanceForm({}),
      quorumApprovals: "12",
      trustEnabled: true,
      minApprovalRate: "120",
    });
    expect(errors).toEqual({
      quorumApprovals: "Approvals needed must be a whole number from 1 to 9",
      minApprovalRate: "The approval rate must be a whole percentage from 0 to 100",
    });
    const parsed = feedConfigSchema.safeParse({
      ...base,
      moderation: { quorum: { approvals: 12, rejection: "veto" } },
    });
    expect(parsed.error?.issues[0].message).toBe("Approvals needed must be a whole number from 1 to 9");
  });
});
