/**
 * Per-feed governance (docs/decisions/0033): quorum decisions and earned trust. Both are off unless a feed's
 * `moderation.quorum` / `moderation.trust` say otherwise, so a feed without them decides as it always did: one
 * moderator's click. Free of zod, so cards and the editor can use it without the schema library.
 */

/** How a quorum feed rejects: one rejection ("veto"), or more rejections than approvals once k votes are cast. */
export const QUORUM_REJECTION_RULES = ["veto", "majority"] as const;
export type QuorumRejectionRule = (typeof QUORUM_REJECTION_RULES)[number];

export const QUORUM_REJECTION_LABELS: Record<QuorumRejectionRule, string> = {
  veto: "One rejection rejects (veto)",
  majority: "A majority of the votes cast",
};

/** The most distinct approvals a feed may require. */
export const MAX_QUORUM_APPROVALS = 9;

export interface QuorumPolicy {
  /** k: distinct approvers whose approvals publish a post (1: one click, as without a quorum). */
  approvals: number;
  rejection: QuorumRejectionRule;
}

export const DEFAULT_QUORUM: QuorumPolicy = { approvals: 1, rejection: "veto" };

function moderationSection(config: unknown): Record<string, unknown> {
  const moderation = (config as { moderation?: unknown } | null)?.moderation;
  return moderation && typeof moderation === "object" ? (moderation as Record<string, unknown>) : {};
}

/** A feed's quorum, or the default (one approval) when its config has none. */
export function quorumPolicyOf(config: unknown): QuorumPolicy {
  const quorum = moderationSection(config).quorum as Partial<QuorumPolicy> | undefined;
  const approvals =
    typeof quorum?.approvals === "number" && Number.isInteger(quorum.approvals) && quorum.approvals >= 1
      ? Math.min(quorum.approvals, MAX_QUORUM_APPROVALS)
      : 1;
  const rejection = quorum?.rejection === "majority" ? "majority" : "veto";
  return { approvals, rejection };
}

/** Whether a feed's posts are decided by votes (k > 1); with k = 1 the first decision settles, as always. */
export function decidesByVotes(policy: QuorumPolicy): boolean {
  return policy.approvals > 1;
}

/**
 * Where a post stands after its votes (each person's counted once): approved once k approve (and, under the
 * majority rule, more approve than reject); rejected at the first rejection (veto), or under the majority rule when
 * at least k votes are cast and rejections outnumber approvals; otherwise still pending.
 */
export function quorumOutcome(
  policy: QuorumPolicy,
  approvals: number,
  rejections: number,
): "approved" | "rejected" | "pending" {
  if (policy.rejection === "veto") {
    if (rejections > 0) return "rejected";
    return approvals >= policy.approvals ? "approved" : "pending";
  }
  if (approvals >= policy.approvals && approvals > rejections) return "approved";
  if (approvals + rejections >= policy.approvals && rejections > approvals) return "rejected";
  return "pending";
}

/** One person's vote on a post, as tallies show it. */
export interface Vote {
  voter: string;
  action: "approve" | "reject";
}

/** How a tally names a rejecter in a feed that keeps rejections anonymous. */
export const ANONYMOUS_VOTER = "an approver";

/** "2 of 3 approvals: @a, @b", and the rejections after it ("; 1 rejection: @c"). */
export function tallyText(votes: readonly Vote[], required: number): string {
  const approvers = votes.filter((vote) => vote.action === "approve").map((vote) => vote.voter);
  const rejecters = votes.filter((vote) => vote.action === "reject").map((vote) => vote.voter);
  let text = `${approvers.length} of ${required} approvals${approvers.length ? `: ${approvers.join(", ")}` : ""}`;
  if (rejecters.length) {
    text += `; ${rejecters.length} ${rejecters.length === 1 ? "rejection" : "rejections"}: ${rejecters.join(", ")}`;
  }
  return text;
}

/** Bounds of the trust policy's numbers. */
export const TRUST_LIMITS = {
  minApproved: { min: 1, max: 10_000 },
  minApprovalRate: { min: 0, max: 100 },
  lastDecided: { min: 1, max: 10_000 },
  withinDays: { min: 1, max: 3650 },
  confirmAfterDays: { min: 1, max: 365 },
  pins: 200,
} as const;

export interface TrustPolicy {
  enabled: boolean;
  /** N: approved submissions needed. */
  minApproved: number;
  /** X: the approval rate needed, in percent. */
  minApprovalRate: number;
  /** M: the rate is over the curator's last M decided submissions in the feed. */
  lastDecided: number;
  /** Only decisions of the last this many days count (none: however old). */
  withinDays?: number;
  /** An auto- or self-approval counts once a distinct approver confirms it, or after this many days unretracted. */
  confirmAfterDays: number;
  /** Curators (a Curate account or a handle, `bluesky:erin.bsky.social` off X) the owner pins in or out. */
  pinned?: { trusted?: string[]; untrusted?: string[] };
  /**
   * A higher bar: a trusted curator over it (over the same last decided submissions) is offered approver rights
   * for the feed, which take effect only when an owner confirms them. None: nobody is offered.
   */
  offerApprover?: { minApproved: number; minApprovalRate: number };
}

export const DEFAULT_TRUST: TrustPolicy = {
  enabled: true,
  minApproved: 10,
  minApprovalRate: 90,
  lastDecided: 20,
  withinDays: 30,
  confirmAfterDays: 7,
};

/** A feed's trust policy, or null when earned trust is off (the default). */
export function trustPolicyOf(config: unknown): TrustPolicy | null {
  const trust = moderationSection(config).trust as Partial<TrustPolicy> | undefined;
  if (trust?.enabled !== true) return null;
  return { ...DEFAULT_TRUST, ...trust, enabled: true };
}

/** A pinned name as lists compare it: lower-case, without "@". */
export function pinKey(name: string): string {
  return name.trim().replace(/^@+/, "").toLowerCase();
}

/** How a curator's recent decisions in a feed stand, as trust counts them. */
export interface TrustStats {
  approved: number;
  decided: number;
}

export type TrustReason = "earned" | "below" | "pinned_trusted" | "pinned_untrusted";

/** Whether a curator is trusted: a pin decides; otherwise ≥ N approved and ≥ X % of the counted decisions. */
export function trustVerdict(
  policy: TrustPolicy,
  stats: TrustStats,
  pin: "trusted" | "untrusted" | null,
): { trusted: boolean; reason: TrustReason } {
  if (pin === "trusted") return { trusted: true, reason: "pinned_trusted" };
  if (pin === "untrusted") return { trusted: false, reason: "pinned_untrusted" };
  const earned =
    stats.decided > 0 &&
    stats.approved >= policy.minApproved &&
    stats.approved * 100 >= policy.minApprovalRate * stats.decided;
  return { trusted: earned, reason: earned ? "earned" : "below" };
}

/** Whether a curator's record clears the policy's higher bar for being offered approver rights. */
export function overApproverBar(policy: TrustPolicy, stats: TrustStats): boolean {
  const bar = policy.offerApprover;
  if (!bar) return false;
  return trustVerdict({ ...policy, ...bar }, stats, null).trusted;
}

/** "12 of 13 approved in the last 30 days" (or "… of their last 13 decided" without a day window). */
export function trustExplanation(policy: TrustPolicy, stats: TrustStats, reason: TrustReason): string {
  if (reason === "pinned_trusted") return "Pinned as trusted by the feed's owners";
  if (reason === "pinned_untrusted") return "Pinned as not trusted by the feed's owners";
  const counted = `${stats.approved} of ${stats.decided} approved`;
  return policy.withinDays
    ? `${counted} in the last ${policy.withinDays} ${policy.withinDays === 1 ? "day" : "days"}`
    : `${counted} of their last ${policy.lastDecided} decided`;
}

/** What the bar is, in words: "10 approved and 90 % of the last 20 decided in the last 30 days". */
export function trustBar(policy: TrustPolicy): string {
  const window = policy.withinDays ? ` in the last ${policy.withinDays} days` : "";
  return `${policy.minApproved} approved and ${policy.minApprovalRate} % of the last ${policy.lastDecided} decided${window}`;
}

/** The messages of the policy's fields, the same beside the form's field and in the API's answer. */
export const GOVERNANCE_MESSAGES = {
  approvals: `Approvals needed must be a whole number from 1 to ${MAX_QUORUM_APPROVALS}`,
  rejection: "The rejection rule is veto or majority",
  minApproved: `Approved submissions needed must be a whole number from ${TRUST_LIMITS.minApproved.min} to ${TRUST_LIMITS.minApproved.max}`,
  minApprovalRate: "The approval rate must be a whole percentage from 0 to 100",
  lastDecided: `Last decided must be a whole number from ${TRUST_LIMITS.lastDecided.min} to ${TRUST_LIMITS.lastDecided.max}`,
  withinDays: `Within days must be a whole number from ${TRUST_LIMITS.withinDays.min} to ${TRUST_LIMITS.withinDays.max}`,
  confirmAfterDays: `Confirmed after must be a whole number of days from ${TRUST_LIMITS.confirmAfterDays.min} to ${TRUST_LIMITS.confirmAfterDays.max}`,
  pin: "A pinned curator is a Curate account or a handle, at most 200 characters",
} as const;
