import {
  displayHandle,
  handleKey,
  type QuorumPolicy,
  quorumOutcome,
  quorumPolicyOf,
  splitHandleKey,
  type Tally,
  type TrustPolicy,
  trustPolicyOf,
} from "@curate/core";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, moderationVotes } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import type { LogDraft } from "../moderation-log/journal.ts";

type VoteRow = typeof moderationVotes.$inferSelect;

/** A vote as moderation hands it over: the same fields as a decision. */
export interface VoteInput {
  submissionId: string;
  feedId: string;
  action: "approve" | "reject";
  moderatorAccountId: string;
  moderatorAccountIdType: VoteRow["moderatorAccountIdType"];
  source: VoteRow["source"];
  /** The Curate account the voting handle is linked to (intake finds it with the handle's other links). */
  account?: string | null;
}

/** A feed's governance policies: its quorum (k = 1 without one) and its trust policy (null: off). */
export interface Governance {
  quorum: QuorumPolicy;
  trust: TrustPolicy | null;
}

/** The governance of each feed named, read in one query. */
export async function governanceOf(
  tx: Database,
  feedIds: readonly string[],
): Promise<Map<string, Governance>> {
  const ids = [...new Set(feedIds)];
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: feeds.id, moderation: sql<unknown>`${feeds.config}->'moderation'` })
    .from(feeds)
    .where(inArray(feeds.id, ids));
  return new Map(
    rows.map((row) => {
      const config = { moderation: row.moderation };
      return [row.id, { quorum: quorumPolicyOf(config), trust: trustPolicyOf(config) }];
    }),
  );
}

/**
 * Who a vote is from, counted once: the Curate account a handle is linked to (so votes from two networks by one
 * linked person are one vote), else the handle itself; and how tallies name them (the handle they voted with).
 */
export function voterOf(input: Pick<VoteInput, "moderatorAccountId" | "moderatorAccountIdType" | "account">) {
  if (input.moderatorAccountIdType === "near") {
    return { key: `near:${input.moderatorAccountId.toLowerCase()}`, label: input.moderatorAccountId };
  }
  const { platform, handle } = splitHandleKey(input.moderatorAccountId);
  return {
    key: input.account
      ? `near:${input.account.toLowerCase()}`
      : `handle:${handleKey(input.moderatorAccountId)}`,
    label: displayHandle(platform, handle),
  };
}

/** The current round's votes of a link, oldest first. */
export function currentVotes(tx: Database, feedId: string, submissionId: string) {
  return tx
    .select()
    .from(moderationVotes)
    .where(
      and(
        eq(moderationVotes.feedId, feedId),
        eq(moderationVotes.submissionId, submissionId),
        isNull(moderationVotes.withdrawnAt),
      ),
    )
    .orderBy(asc(moderationVotes.id));
}

export function tallyOf(votes: readonly VoteRow[], policy: QuorumPolicy): Tally {
  return {
    votes: votes.map((vote) => ({ voter: vote.voterLabel, action: vote.action })),
    required: policy.approvals,
  };
}

export type VoteResult =
  | { kind: "not_pending" }
  | { kind: "repeat" }
  | {
      kind: "counted";
      outcome: "approved" | "rejected" | "pending";
      tally: Tally;
      /** Who the decision is recorded under when the vote settles the post: the latest voter who voted its way. */
      decider: VoteRow | null;
    };

/**
 * Casts one person's vote on a pending link of a quorum feed, in the caller's transaction: the link is locked, a
 * person's second vote in the round is not counted, and the round's votes are judged by the feed's policy as it is
 * now (so a post with partial votes is judged by a changed k at its next vote, and settled posts never again).
 */
export async function castVote(tx: Database, input: VoteInput, policy: QuorumPolicy): Promise<VoteResult> {
  const [link] = await queryRows<{ status: string }>(
    tx,
    sql`select status from submission_feeds
      where submission_id = ${input.submissionId} and feed_id = ${input.feedId} for update`,
  );
  if (link?.status !== "pending") return { kind: "not_pending" };
  const voter = voterOf(input);
  const inserted = await queryRows<{ id: number }>(
    tx,
    sql`insert into moderation_votes
      (feed_id, submission_id, voter_key, voter_label, moderator_account_id, moderator_account_id_type, action, source)
    values (${input.feedId}, ${input.submissionId}, ${voter.key}, ${voter.label}, ${input.moderatorAccountId},
      ${input.moderatorAccountIdType}, ${input.action}, ${input.source})
    on conflict (feed_id, submission_id, voter_key) where withdrawn_at is null do nothing
    returning id`,
  );
  if (inserted.length === 0) return { kind: "repeat" };

  const votes = await currentVotes(tx, input.feedId, input.submissionId);
  const approvals = votes.filter((vote) => vote.action === "approve").length;
  const outcome = quorumOutcome(policy, approvals, votes.length - approvals);
  const wanted = outcome === "approved" ? "approve" : "reject";
  const decider =
    outcome === "pending" ? null : ([...votes].reverse().find((vote) => vote.action === wanted) ?? null);
  return { kind: "counted", outcome, tally: tallyOf(votes, policy), decider };
}

/** A vote as the feed's moderation log records it (the decision that settles the post is an entry of its own). */
export function voteDraft(
  input: VoteInput & { via: LogDraft["via"]; network: string | null; handle: string | null },
  tally: Tally,
): LogDraft {
  return {
    feedId: input.feedId,
    action: "vote",
    via: input.via,
    network: input.network,
    actor: {
      account: input.moderatorAccountIdType === "near" ? input.moderatorAccountId : (input.account ?? null),
      handle: input.handle,
    },
    item: input.submissionId,
    details: {
      vote: input.action,
      approvals: tally.votes.filter((vote) => vote.action === "approve").length,
      rejections: tally.votes.filter((vote) => vote.action === "reject").length,
      required: tally.required,
    },
  };
}

/** Withdraws the current round's votes of links whose approval was undone: they are voted on afresh. */
export async function withdrawVotes(tx: Database, feedId: string, submissionIds: readonly string[]) {
  if (submissionIds.length === 0) return;
  await tx
    .update(moderationVotes)
    .set({ withdrawnAt: sql`now()` })
    .where(
      and(
        eq(moderationVotes.feedId, feedId),
        inArray(moderationVotes.submissionId, [...submissionIds]),
        isNull(moderationVotes.withdrawnAt),
      ),
    );
}
