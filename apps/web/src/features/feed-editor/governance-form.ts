import {
  DEFAULT_TRUST,
  GOVERNANCE_MESSAGES,
  MAX_QUORUM_APPROVALS,
  type QuorumRejectionRule,
  TRUST_LIMITS,
} from "@curate/core";

/**
 * The edit form's quorum and earned-trust fields (decision 0033), as typed. Both are off unless set: an empty or 1
 * "approvals needed" and an unchecked "earned trust" leave the config as it was without them.
 */
export interface GovernanceForm {
  quorumApprovals: string;
  rejection: QuorumRejectionRule;
  trustEnabled: boolean;
  minApproved: string;
  minApprovalRate: string;
  lastDecided: string;
  withinDays: string;
  confirmAfterDays: string;
  /** Comma-separated accounts or handles. */
  pinnedTrusted: string;
  pinnedUntrusted: string;
  /** The higher bar for offering approver rights; both empty: nobody is offered. */
  offerMinApproved: string;
  offerMinApprovalRate: string;
}

export type GovernanceErrors = Partial<Record<keyof GovernanceForm, string>>;

type Entry = Record<string, unknown>;
const isEntry = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const numberText = (value: unknown, fallback?: number) =>
  typeof value === "number" ? String(value) : fallback === undefined ? "" : String(fallback);
const names = (value: unknown) =>
  Array.isArray(value) ? value.filter((name) => typeof name === "string").join(", ") : "";
const splitNames = (value: string) =>
  value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);

export function governanceForm(moderation: Entry): GovernanceForm {
  const quorum = isEntry(moderation.quorum) ? moderation.quorum : {};
  const trust = isEntry(moderation.trust) ? moderation.trust : {};
  const pinned = isEntry(trust.pinned) ? trust.pinned : {};
  const offer = isEntry(trust.offerApprover) ? trust.offerApprover : {};
  return {
    quorumApprovals: numberText(quorum.approvals),
    rejection: quorum.rejection === "majority" ? "majority" : "veto",
    trustEnabled: trust.enabled === true,
    minApproved: numberText(trust.minApproved, DEFAULT_TRUST.minApproved),
    minApprovalRate: numberText(trust.minApprovalRate, DEFAULT_TRUST.minApprovalRate),
    lastDecided: numberText(trust.lastDecided, DEFAULT_TRUST.lastDecided),
    withinDays: isEntry(moderation.trust) ? numberText(trust.withinDays) : String(DEFAULT_TRUST.withinDays),
    confirmAfterDays: numberText(trust.confirmAfterDays, DEFAULT_TRUST.confirmAfterDays),
    pinnedTrusted: names(pinned.trusted),
    pinnedUntrusted: names(pinned.untrusted),
    offerMinApproved: numberText(offer.minApproved),
    offerMinApprovalRate: numberText(offer.minApprovalRate),
  };
}

/** The moderation section with the form's quorum and trust written in (other keys untouched). */
export function withGovernance(moderation: Entry, form: GovernanceForm): Entry {
  const next = { ...moderation };
  const approvals = form.quorumApprovals.trim();
  if (approvals === "" || (approvals === "1" && form.rejection === "veto")) delete next.quorum;
  else next.quorum = { approvals: Number(approvals), rejection: form.rejection };

  // Turned off, a policy is kept as it was (enabled: false), so turning it on again restores it.
  if (!form.trustEnabled) {
    if (isEntry(moderation.trust)) next.trust = { ...moderation.trust, enabled: false };
  } else {
    const trusted = splitNames(form.pinnedTrusted);
    const untrusted = splitNames(form.pinnedUntrusted);
    const withinDays = form.withinDays.trim();
    const offerApproved = form.offerMinApproved.trim();
    const offerRate = form.offerMinApprovalRate.trim();
    next.trust = {
      enabled: true,
      minApproved: Number(form.minApproved.trim()),
      minApprovalRate: Number(form.minApprovalRate.trim()),
      lastDecided: Number(form.lastDecided.trim()),
      ...(withinDays === "" ? {} : { withinDays: Number(withinDays) }),
      confirmAfterDays: Number(form.confirmAfterDays.trim()),
      ...(trusted.length || untrusted.length
        ? {
            pinned: {
              ...(trusted.length ? { trusted } : {}),
              ...(untrusted.length ? { untrusted } : {}),
            },
          }
        : {}),
      ...(offerApproved === "" && offerRate === ""
        ? {}
        : { offerApprover: { minApproved: Number(offerApproved), minApprovalRate: Number(offerRate) } }),
    };
  }
  return next;
}

const whole = (value: string, min: number, max: number) =>
  /^\d+$/.test(value.trim()) && Number(value) >= min && Number(value) <= max;

/** The contract's rules, with its messages, checked as the owner types. */
export function governanceErrors(form: GovernanceForm): GovernanceErrors | undefined {
  const errors: GovernanceErrors = {};
  if (form.quorumApprovals.trim() !== "" && !whole(form.quorumApprovals, 1, MAX_QUORUM_APPROVALS)) {
    errors.quorumApprovals = GOVERNANCE_MESSAGES.approvals;
  }
  if (form.trustEnabled) {
    const { minApproved, lastDecided, withinDays, confirmAfterDays } = TRUST_LIMITS;
    if (!whole(form.minApproved, minApproved.min, minApproved.max))
      errors.minApproved = GOVERNANCE_MESSAGES.minApproved;
    if (!whole(form.minApprovalRate, 0, 100)) errors.minApprovalRate = GOVERNANCE_MESSAGES.minApprovalRate;
    if (!whole(form.lastDecided, lastDecided.min, lastDecided.max))
      errors.lastDecided = GOVERNANCE_MESSAGES.lastDecided;
    if (form.withinDays.trim() !== "" && !whole(form.withinDays, withinDays.min, withinDays.max))
      errors.withinDays = GOVERNANCE_MESSAGES.withinDays;
    if (!whole(form.confirmAfterDays, confirmAfterDays.min, confirmAfterDays.max))
      errors.confirmAfterDays = GOVERNANCE_MESSAGES.confirmAfterDays;
    // The higher bar is both numbers or neither.
    if (form.offerMinApproved.trim() !== "" || form.offerMinApprovalRate.trim() !== "") {
      if (!whole(form.offerMinApproved, minApproved.min, minApproved.max))
        errors.offerMinApproved = GOVERNANCE_MESSAGES.minApproved;
      if (!whole(form.offerMinApprovalRate, 0, 100))
        errors.offerMinApprovalRate = GOVERNANCE_MESSAGES.minApprovalRate;
    }
  }
  return Object.keys(errors).length ? errors : undefined;
}
