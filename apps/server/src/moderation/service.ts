import {
  BULK_DECISION_LIMIT,
  type BulkDecisionOutcome,
  type BulkFilter,
  type BulkModerateRequest,
  type BulkModerationAnswer,
  decidesByVotes,
  type ModerateRequest,
  type ModerationOutcome,
  type ModerationRecord,
  moderatorFields,
  normaliseFeedId,
  splitHandleKey,
  type Tally,
  type UndoAnswer,
  type UndoRequest,
} from "@curate/core";
import { and, asc, desc, eq, gt, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { activities, moderationHistory, processingJobs, submissionFeeds } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { moderationRight } from "../feeds/permissions.ts";
import { reevaluateCuratorsOf } from "../governance/trust.ts";
import { castVote, governanceOf, voteDraft, withdrawVotes } from "../governance/votes.ts";
import { type LogDraft, logLater, withModerationLog } from "../moderation-log/journal.ts";
import { requestAcknowledgement } from "../processing/acknowledgements.ts";
import { approvalJobKey, requestProcessing } from "../processing/requests.ts";
import { cancelScheduledSends } from "../processing/schedule.ts";
import { submissionSearch } from "../submissions/service.ts";

type ModerationRow = typeof moderationHistory.$inferInsert;

export interface ModerationInput {
  submissionId: string;
  feedId: string;
  action: "approve" | "reject";
  moderatorAccountId: string;
  moderatorAccountIdType: ModerationRow["moderatorAccountIdType"];
  source: ModerationRow["source"];
  note?: string | null;
  /** What the moderation log says besides: the account a handle is linked to, the bulk run deciding. */
  origin?: DecisionOrigin;
}

export interface DecisionOrigin {
  /** The Curate account the deciding handle is linked to. */
  account?: string | null;
  bulkRunId?: string;
  /** An auto-approval because the curator is trusted in the feed (earned trust, decision 0033). */
  trusted?: boolean;
}

/** A decision as the feed's moderation log records it: who (account and handle), from where, on what. */
function viaOf(input: ModerationInput): LogDraft["via"] {
  return input.origin?.bulkRunId !== undefined
    ? "bulk_run"
    : input.source === "platform_comment"
      ? "reply"
      : input.source === "auto_approval"
        ? "auto_approval"
        : "app";
}

function decisionDraft(input: ModerationInput, note: string | null, tally?: Tally): LogDraft {
  const byHandle = input.moderatorAccountIdType === "platform_username";
  const identity = byHandle ? splitHandleKey(input.moderatorAccountId) : null;
  const details: Record<string, unknown> = {
    ...(input.origin?.bulkRunId ? { bulkRun: input.origin.bulkRunId } : {}),
    ...(input.origin?.trusted ? { trustedCurator: true } : {}),
    ...(tally ? { quorum: quorumDetails(tally) } : {}),
  };
  return {
    feedId: input.feedId,
    action: input.action,
    via: viaOf(input),
    network: identity?.platform ?? null,
    actor: {
      account: byHandle ? (input.origin?.account ?? null) : input.moderatorAccountId,
      handle: identity?.handle ?? null,
    },
    item: input.submissionId,
    note,
    details: Object.keys(details).length ? details : null,
  };
}

/**
 * Who made the quorum, as the decision's log entry records it: the approvers by name, the rejections counted only
 * (each is named in its own vote entry, which `nameRejectersInLog: false` keeps anonymous).
 */
function quorumDetails(tally: Tally) {
  return {
    required: tally.required,
    approvals: tally.votes.filter((vote) => vote.action === "approve").map((vote) => vote.voter),
    rejections: tally.votes.filter((vote) => vote.action === "reject").length,
  };
}

/** A vote as the log records it: the person, the network they voted from, and where the tally stands. */
function loggedVote(input: ModerationInput, tally: Tally): LogDraft {
  const identity =
    input.moderatorAccountIdType === "platform_username" ? splitHandleKey(input.moderatorAccountId) : null;
  return voteDraft(
    {
      ...input,
      account: input.origin?.account ?? null,
      via: viaOf(input),
      network: identity?.platform ?? null,
      handle: identity?.handle ?? null,
    },
    tally,
  );
}

/**
 * Decides a pending feed link, in the caller's transaction: the status changes only if it is still pending
 * (so a second approval is a 409, never a second distribution), and the history row, activity and — on
 * approval — the pipeline's processing job request are written with it (statistics follow by trigger).
 */
export async function moderateLink(tx: Database, input: ModerationInput): Promise<ModerationOutcome> {
  const [outcome] = await moderateLinks(tx, [input]);
  if (outcome) return outcome;
  const [existing] = await tx
    .select({ status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(
      and(eq(submissionFeeds.submissionId, input.submissionId), eq(submissionFeeds.feedId, input.feedId)),
    );
  if (!existing) {
    throw AppError.notFound(`Submission "${input.submissionId}" is not in feed "${input.feedId}".`);
  }
  if (existing.status === "pending") {
    throw AppError.conflict(
      `You have already voted on "${input.submissionId}" in "${input.feedId}": it waits for other approvers.`,
    );
  }
  throw AppError.conflict(
    `Submission "${input.submissionId}" is already ${existing.status} in "${input.feedId}".`,
  );
}

/** A moderation history row as the API answers it. */
export function moderationRecordOf(history: typeof moderationHistory.$inferSelect): ModerationRecord {
  return {
    id: history.id,
    submissionId: history.submissionId,
    feedId: history.feedId,
    moderatorAccountId: history.moderatorAccountId,
    moderatorAccountIdType: history.moderatorAccountIdType,
    ...moderatorFields(history.moderatorAccountId, history.moderatorAccountIdType),
    source: history.source,
    action: history.action,
    note: history.note,
    createdAt: history.createdAt.toISOString(),
    updatedAt: history.updatedAt.toISOString(),
  };
}

const linkKey = (link: { submissionId: string; feedId: string }) =>
  `${link.submissionId}\u0000${link.feedId}`;

/**
 * `moderateLink` for many links at once (intake applies a page of replies, a bulk run a chunk): each link still
 * pending is decided, in the order given. A link that is not pending any more (decided meanwhile, or earlier in the
 * list) answers null and nothing is written for it.
 *
 * In a feed that decides by a quorum (k > 1, decision 0033) each input is one person's vote instead: it is counted
 * once per person and round, logged, and answered as pending until the votes settle the post — then the post is
 * decided as a single decision would be, under the voter who settled it, and its undo window starts. A person's
 * second vote answers null. Feeds with earned trust evaluate the curators of what was decided.
 */
export async function moderateLinks(
  tx: Database,
  inputs: readonly ModerationInput[],
): Promise<Array<ModerationOutcome | null>> {
  if (inputs.length === 0) return [];
  const governance = await governanceOf(
    tx,
    inputs.map((input) => input.feedId),
  );
  const answers: Array<ModerationOutcome | null> = inputs.map(() => null);
  const direct: number[] = [];
  for (const [index, input] of inputs.entries()) {
    const quorum = governance.get(input.feedId)?.quorum;
    if (!quorum || !decidesByVotes(quorum)) {
      direct.push(index);
      continue;
    }
    const vote = await castVote(tx, { ...input, account: input.origin?.account ?? null }, quorum);
    if (vote.kind !== "counted") continue;
    logLater(tx, [loggedVote(input, vote.tally)]);
    if (vote.outcome === "pending" || !vote.decider) {
      answers[index] = {
        submissionId: input.submissionId,
        feedId: input.feedId,
        status: "pending",
        tally: vote.tally,
        processingJobId: null,
        undoUntil: null,
        moderation: null,
      };
      continue;
    }
    // Settled now, so a later vote in this call finds the post decided. The decision is the quorum's, recorded
    // under the latest voter who voted its way (this one, unless an approval completed a majority of rejections).
    const decider = vote.decider;
    const byThisVoter =
      decider.action === input.action && decider.moderatorAccountId === input.moderatorAccountId;
    const [outcome] = await settleLinks(
      tx,
      [
        byThisVoter
          ? input
          : {
              ...input,
              action: decider.action,
              moderatorAccountId: decider.moderatorAccountId,
              moderatorAccountIdType: decider.moderatorAccountIdType,
              source: decider.source,
              note: null,
              origin: { bulkRunId: input.origin?.bulkRunId },
            },
      ],
      [vote.tally],
    );
    answers[index] = outcome ? { ...outcome, tally: vote.tally } : null;
  }
  const settled = await settleLinks(
    tx,
    direct.map((index) => inputs[index]),
    [],
  );
  for (const [position, outcome] of settled.entries()) answers[direct[position]] = outcome;
  await reevaluateCuratorsOf(
    tx,
    answers.flatMap((outcome) => (outcome && outcome.status !== "pending" ? [outcome] : [])),
    governance,
  );
  return answers;
}

/**
 * Decides pending links with one statement per table whatever their number: the status changes only where still
 * pending, with its history row, log entry (with the quorum that made it, if any), activity and processing request.
 */
async function settleLinks(
  tx: Database,
  inputs: readonly ModerationInput[],
  tallies: ReadonlyArray<Tally | undefined>,
): Promise<Array<ModerationOutcome | null>> {
  if (inputs.length === 0) return [];
  const tallyOfLink = new Map<string, Tally>();
  for (const [index, input] of inputs.entries()) {
    const tally = tallies[index];
    if (tally) tallyOfLink.set(linkKey(input), tally);
  }
  const firstOfLink = new Map<string, ModerationInput>();
  for (const input of inputs) if (!firstOfLink.has(linkKey(input))) firstOfLink.set(linkKey(input), input);
  const statusOf = (input: ModerationInput) => (input.action === "approve" ? "approved" : "rejected");
  const updated = await queryRows<{ submissionId: string; feedId: string; curatorPostKey: string | null }>(
    tx,
    sql`update submission_feeds sf set status = v.status, updated_at = now()
      from (values ${sql.join(
        [...firstOfLink.values()].map(
          (input) => sql`(${input.submissionId}, ${input.feedId}, ${statusOf(input)})`,
        ),
        sql`, `,
      )}) as v(submission_id, feed_id, status)
      where sf.submission_id = v.submission_id and sf.feed_id = v.feed_id and sf.status = 'pending'
      returning sf.submission_id as "submissionId", sf.feed_id as "feedId", sf.curator_tweet_id as "curatorPostKey"`,
  );
  if (updated.length === 0) return inputs.map(() => null);
  const curatorPostKeys = new Map(updated.map((link) => [linkKey(link), link.curatorPostKey]));
  const decided = [...firstOfLink.values()].filter((input) => curatorPostKeys.has(linkKey(input)));

  const histories = await tx
    .insert(moderationHistory)
    .values(
      decided.map((input) => ({
        submissionId: input.submissionId,
        feedId: input.feedId,
        moderatorAccountId: input.moderatorAccountId,
        moderatorAccountIdType: input.moderatorAccountIdType,
        source: input.source,
        action: input.action,
        note: input.note?.trim() || null,
      })),
    )
    .returning();
  const historyOf = new Map(histories.map((history) => [linkKey(history), history]));
  logLater(
    tx,
    decided.map((input) =>
      decisionDraft(input, historyOf.get(linkKey(input))?.note ?? null, tallyOfLink.get(linkKey(input))),
    ),
  );

  await tx.insert(activities).values(
    decided.map((input) => {
      const history = historyOf.get(linkKey(input)) as (typeof histories)[number];
      return {
        userId: input.moderatorAccountId,
        type: input.action === "approve" ? ("CONTENT_APPROVAL" as const) : ("CONTENT_REJECTION" as const),
        feedId: input.feedId,
        submissionId: input.submissionId,
        data: {
          moderationDetails: {
            moderationId: history.id,
            action: input.action,
            source: input.source,
            moderatorAccountIdType: input.moderatorAccountIdType,
            note: history.note,
          },
        },
      };
    }),
  );

  const approvals = decided.flatMap((input) => {
    const history = historyOf.get(linkKey(input));
    return input.action === "approve" && history
      ? [{ submissionId: input.submissionId, feedId: input.feedId, moderationId: history.id }]
      : [];
  });
  const requests = await requestProcessing(tx, approvals);
  for (const approval of approvals) {
    const request = requests.get(approvalJobKey(approval));
    if (!request) continue;
    await requestAcknowledgement(tx, {
      submissionId: approval.submissionId,
      feedId: approval.feedId,
      kind: "approved",
      notBefore: request.notBefore,
      config: { acknowledgements: request.acknowledgements },
      curatorPostKey: curatorPostKeys.get(linkKey(approval)) ?? null,
    });
  }

  const answered = new Set<string>();
  return inputs.map((input) => {
    const key = linkKey(input);
    const history = historyOf.get(key);
    if (!history || answered.has(key) || firstOfLink.get(key) !== input) return null;
    answered.add(key);
    const request =
      input.action === "approve"
        ? requests.get(approvalJobKey({ ...input, moderationId: history.id }))
        : undefined;
    return {
      submissionId: input.submissionId,
      feedId: input.feedId,
      status: statusOf(input),
      processingJobId: request?.jobId ?? null,
      undoUntil: request?.notBefore ? request.notBefore.toISOString() : null,
      moderation: moderationRecordOf(history),
    };
  });
}

/** The session's user must moderate the feed: 404 for an unknown feed, 403 for anyone else. */
export async function assertModerator(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  feedId: string,
  user: User,
) {
  const right = await moderationRight(db, env, feedId, user);
  if (!right) throw AppError.notFound(`Feed "${feedId}" not found.`);
  if (!right.canModerate) throw AppError.forbidden(`You are not a moderator of "${feedId}".`);
  return right;
}

/**
 * Locks some of a feed's links for a decision or an undo, in one order, so two bulk calls over the same posts wait
 * for each other instead of deadlocking.
 */
function lockLinks(tx: Database, feedId: string, submissionIds: string[]) {
  return tx
    .select({ id: submissionFeeds.submissionId, status: submissionFeeds.status })
    .from(submissionFeeds)
    .where(and(eq(submissionFeeds.feedId, feedId), inArray(submissionFeeds.submissionId, submissionIds)))
    .orderBy(asc(submissionFeeds.submissionId))
    .for("update");
}

/** Who decided, for a decision made in the web app by the session's user. */
export function decidedInTheApp(user: User, reason: string) {
  return {
    moderatorAccountId: user.nearAccountId,
    moderatorAccountIdType: "near",
    source: reason === "super_admin" ? "super_admin_direct" : "ui",
  } as const;
}

/**
 * A moderator's decision in the web app: the actor is the session's user (whatever the request claims), who
 * must moderate the feed; the link is decided in one transaction.
 */
export async function decideSubmission(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  request: ModerateRequest,
): Promise<ModerationOutcome> {
  const feedId = normaliseFeedId(request.feedId);
  const right = await assertModerator(db, env, feedId, user);
  return withModerationLog(db, (tx) =>
    moderateLink(tx, {
      submissionId: request.submissionId,
      feedId,
      action: request.action,
      note: request.note,
      ...decidedInTheApp(user, right.reason),
    }),
  );
}

/** Posts decided per transaction: a long queue never holds one transaction (and its locks) for long. */
export const BULK_CHUNK = 100;

/**
 * The feed's pending posts the curation tab's search and network match: the same set its list of pending posts
 * counts for "Select all N matching", so a decision by filter decides exactly those.
 */
export function pendingMatchesSql(feedId: string, filter: BulkFilter): SQL {
  const q = filter.q || undefined;
  const joined = q || filter.platform;
  return sql`from submission_feeds sf
    ${joined ? sql`join submissions s on s.tweet_id = sf.submission_id` : sql``}
    where sf.feed_id = ${feedId} and sf.status = 'pending'
    ${q ? sql`and ${submissionSearch(q)}` : sql``}
    ${filter.platform ? sql`and s.platform = ${filter.platform}` : sql``}`;
}

/** Every pending post the filter matches ("Select all N matching"), newest first. */
async function pendingMatches(db: Database, feedId: string, filter: BulkFilter): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select sf.submission_id as id ${pendingMatchesSql(feedId, filter)}
      order by sf.submitted_at desc, sf.submission_id limit ${BULK_DECISION_LIMIT + 1}`,
  );
  if (rows.length > BULK_DECISION_LIMIT) {
    throw AppError.validation(
      `More than ${BULK_DECISION_LIMIT} pending posts match: decide at most ${BULK_DECISION_LIMIT} at once (narrow the search).`,
    );
  }
  return rows.map((row) => row.id);
}

/** Who decides a bulk chunk, how, and in which feed. */
export interface ChunkDecision {
  feedId: string;
  action: "approve" | "reject";
  note?: string | null;
  moderatorAccountId: string;
  moderatorAccountIdType: ModerationRow["moderatorAccountIdType"];
  source: ModerationRow["source"];
  origin?: DecisionOrigin;
}

/**
 * Decides up to a chunk of a feed's posts in the caller's transaction: their links are locked first (in one order),
 * each still pending is decided as a single decision would be, the others are reported (never decided twice).
 */
export async function decideChunk(tx: Database, decision: ChunkDecision, ids: string[]) {
  const results = new Map<string, { outcome: BulkDecisionOutcome; processingJobId: string | null }>();
  let firstUndoUntil: string | null = null;
  let lastUndoUntil: string | null = null;
  const links = await lockLinks(tx, decision.feedId, ids);
  const statusOf = new Map(links.map((link) => [link.id, link.status]));
  const pending: string[] = [];
  for (const id of ids) {
    const status = statusOf.get(id);
    if (status === undefined) {
      results.set(id, { outcome: "not_found", processingJobId: null });
    } else if (status !== "pending") {
      results.set(id, {
        outcome: status === "approved" ? "already_approved" : "already_rejected",
        processingJobId: null,
      });
    } else {
      // A post repeated later in this chunk is decided once.
      statusOf.set(id, decision.action === "approve" ? "approved" : "rejected");
      results.set(id, { outcome: "decided", processingJobId: null });
      pending.push(id);
    }
  }
  // The links are locked: every one still pending is decided.
  const outcomes = await moderateLinks(
    tx,
    pending.map((submissionId) => ({ ...decision, submissionId })),
  );
  for (const [index, outcome] of outcomes.entries()) {
    const result = results.get(pending[index]);
    if (!outcome) {
      // Locked and pending, so only a quorum feed leaves one undecided: this person had voted on it already.
      if (result?.outcome === "decided") result.outcome = "already_voted";
      continue;
    }
    if (result?.outcome === "decided" && outcome.status === "pending") result.outcome = "voted";
    if (result?.outcome === "decided") result.processingJobId = outcome.processingJobId;
    if (outcome.undoUntil) {
      if (!firstUndoUntil || outcome.undoUntil < firstUndoUntil) firstUndoUntil = outcome.undoUntil;
      if (!lastUndoUntil || outcome.undoUntil > lastUndoUntil) lastUndoUntil = outcome.undoUntil;
    }
  }
  return { results, firstUndoUntil, lastUndoUntil };
}

/**
 * A moderator's decision on many posts of one feed (the curation tab's selection). Each pending post is decided
 * once, as a single decision would be (its own history row, activity and processing request), in transactions of
 * a hundred that lock the posts' links first; a post decided meanwhile by someone else is reported, never decided
 * twice.
 */
export async function decideInBulk(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  request: BulkModerateRequest,
): Promise<BulkModerationAnswer> {
  const feedId = normaliseFeedId(request.feedId);
  const right = await assertModerator(db, env, feedId, user);
  const ids = request.submissionIds
    ? [...new Set(request.submissionIds)]
    : await pendingMatches(db, feedId, request.filter ?? {});

  const results = new Map<string, { outcome: BulkDecisionOutcome; processingJobId: string | null }>();
  let undoUntil: string | null = null;
  const actor = {
    feedId,
    action: request.action,
    note: request.note,
    ...decidedInTheApp(user, right.reason),
  };
  for (let start = 0; start < ids.length; start += BULK_CHUNK) {
    const chunk = ids.slice(start, start + BULK_CHUNK);
    const decided = await withModerationLog(db, (tx) => decideChunk(tx, actor, chunk));
    for (const [id, result] of decided.results) results.set(id, result);
    if (decided.lastUndoUntil && (!undoUntil || decided.lastUndoUntil > undoUntil))
      undoUntil = decided.lastUndoUntil;
  }
  const answer = ids.map((submissionId) => ({
    submissionId,
    ...(results.get(submissionId) ?? { outcome: "not_found" as const, processingJobId: null }),
  }));
  return {
    feedId,
    action: request.action,
    decided: answer.filter((entry) => entry.outcome === "decided").length,
    undoUntil,
    results: answer,
  };
}

/**
 * Takes back the approvals of up to a chunk of a feed's posts in the caller's transaction, each only inside its undo
 * window (its job still held in the outbox, then cancelled): the post is pending again and its record marked undone.
 */
export async function undoChunk(
  tx: Database,
  feedId: string,
  chunk: string[],
  undoneBy: string,
  bulkRunId?: string,
) {
  const results: UndoAnswer["results"] = [];
  const links = await lockLinks(tx, feedId, chunk);
  const approved = new Set(links.filter((link) => link.status === "approved").map((link) => link.id));
  for (const submissionId of chunk) {
    if (!approved.has(submissionId)) {
      results.push({ submissionId, outcome: "not_approved" });
      continue;
    }
    const [decision] = await tx
      .select({ id: moderationHistory.id })
      .from(moderationHistory)
      .where(
        and(
          eq(moderationHistory.submissionId, submissionId),
          eq(moderationHistory.feedId, feedId),
          eq(moderationHistory.action, "approve"),
          isNull(moderationHistory.undoneAt),
        ),
      )
      .orderBy(desc(moderationHistory.id))
      .limit(1);
    const cancelled = decision
      ? await tx
          .update(processingJobs)
          .set({ status: "cancelled", completedAt: sql`now()`, note: `Undone by ${undoneBy}` })
          .where(
            and(
              eq(
                processingJobs.idempotencyKey,
                approvalJobKey({ submissionId, feedId, moderationId: decision.id }),
              ),
              eq(processingJobs.status, "pending"),
              isNull(processingJobs.queuedAt),
              gt(processingJobs.notBefore, sql`now()`),
              // A job waiting for a scheduled slot can be undone too, unless one of its channels already published.
              sql`not exists (select 1 from processing_steps ps where ps.job_id = ${processingJobs.id}
                and ps.type = 'distribution' and ps.status = 'success')`,
            ),
          )
          .returning({ id: processingJobs.id })
      : [];
    await cancelScheduledSends(
      tx,
      cancelled.map((job) => job.id),
      `Undone by ${undoneBy} before it was published.`,
    );
    if (!decision || cancelled.length === 0) {
      results.push({ submissionId, outcome: "window_closed" });
      continue;
    }
    await tx
      .update(moderationHistory)
      .set({ undoneAt: sql`now()`, undoneBy: undoneBy, updatedAt: sql`now()` })
      .where(eq(moderationHistory.id, decision.id));
    await tx
      .update(submissionFeeds)
      .set({ status: "pending", updatedAt: sql`now()` })
      .where(and(eq(submissionFeeds.submissionId, submissionId), eq(submissionFeeds.feedId, feedId)));
    results.push({ submissionId, outcome: "undone" });
  }
  const undone = results.flatMap((result) => (result.outcome === "undone" ? [result.submissionId] : []));
  // In a quorum feed the post is voted on afresh; trust counts the approval no more.
  await withdrawVotes(tx, feedId, undone);
  await reevaluateCuratorsOf(
    tx,
    undone.map((submissionId) => ({ submissionId, feedId })),
  );
  logLater(
    tx,
    results.flatMap((result) =>
      result.outcome === "undone"
        ? [
            {
              feedId,
              action: "undo" as const,
              via: bulkRunId ? ("bulk_run" as const) : ("app" as const),
              actor: { account: undoneBy, handle: null },
              item: result.submissionId,
              details: bulkRunId ? { bulkRun: bulkRunId } : null,
            },
          ]
        : [],
    ),
  );
  return results;
}

/**
 * Takes approvals back inside their undo window: each post returns to pending, its approval record is marked
 * undone (by whom, when) and its job is cancelled before any step ran. A job already handed to the queue (the
 * window closed) is past taking back. One post asked about and not undone is a 409; a bulk undo answers per post.
 */
export async function undoDecisions(
  db: Database,
  env: Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">,
  user: User,
  request: UndoRequest,
): Promise<UndoAnswer> {
  const feedId = normaliseFeedId(request.feedId);
  await assertModerator(db, env, feedId, user);
  const ids = [...new Set(request.submissionIds ?? [request.submissionId as string])];

  const results: UndoAnswer["results"] = [];
  for (let start = 0; start < ids.length; start += BULK_CHUNK) {
    const chunk = ids.slice(start, start + BULK_CHUNK);
    results.push(...(await withModerationLog(db, (tx) => undoChunk(tx, feedId, chunk, user.nearAccountId))));
  }
  if (request.submissionId !== undefined && results[0]?.outcome !== "undone") {
    throw AppError.conflict(
      results[0]?.outcome === "not_approved"
        ? `Submission "${request.submissionId}" is not approved in "${feedId}": there is nothing to undo.`
        : "Too late to undo: the undo window has closed and this approval is being published.",
    );
  }
  return { feedId, undone: results.filter((result) => result.outcome === "undone").length, results };
}
