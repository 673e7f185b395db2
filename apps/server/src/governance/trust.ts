import {
  type CuratorTrust,
  handleOnPlatform,
  moderatorReason,
  overApproverBar,
  type Paged,
  type Platform,
  pinKey,
  platformKey,
  splitHandleKey,
  type TrustPolicy,
  type TrustQuery,
  type TrustStats,
  trustExplanation,
  trustPolicyOf,
  trustVerdict,
} from "@curate/core";
import { and, desc, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { approverOffers, curatorTrust, feeds } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { logLater, withModerationLog } from "../moderation-log/journal.ts";
import { type Governance, governanceOf } from "./votes.ts";

/** A curator as trust counts them: one person over every handle linked to their Curate account. */
export interface TrustPerson {
  /** `near:<account>` or `handle:<curator key>`. */
  key: string;
  /** As shown: the account, or the curator key. */
  curator: string;
  account: string | null;
  /** The handle keys their submissions are stored under, lower-case. */
  curatorKeys: string[];
  /** The handle the log names (without its network), when known. */
  handle: string | null;
}

/** A Curate (NEAR) account: an implicit one (64 hex digits) or a named one (with a dot, which no X handle has). */
const NEAR_ACCOUNT = /^([0-9a-f]{64}|[a-z0-9_-]+(\.[a-z0-9_-]+)+)$/;

/**
 * The person behind a curator key (`sam` on X, `bluesky:erin.bsky.social` elsewhere) or a Curate account: a
 * handle linked to an account is that account's, with all its other linked handles (linked handles are one person).
 */
export async function trustPersonOf(tx: Database, name: string): Promise<TrustPerson> {
  const key = pinKey(name);
  const isAccount = NEAR_ACCOUNT.test(key);
  const account = isAccount
    ? key
    : ((
        await queryRows<{ account: string | null }>(tx, sql`select curate_handle_account(${key}) as account`)
      )[0]?.account ?? null);
  const handle = isAccount ? null : splitHandleKey(key).handle;
  if (!account) return { key: `handle:${key}`, curator: key, account: null, curatorKeys: [key], handle };
  const linked = await queryRows<{ platform: string; username: string }>(
    tx,
    sql`select la.platform_name as platform, la.username from linked_accounts la join users u on u.id = la.user_id
      where lower(u.near_account_id) = ${account.toLowerCase()}`,
  );
  const keys = new Set(isAccount ? [] : [key]);
  for (const row of linked) {
    keys.add(handleOnPlatform(platformKey(row.platform) as Platform, row.username).toLowerCase());
  }
  return { key: `near:${account.toLowerCase()}`, curator: account, account, curatorKeys: [...keys], handle };
}

function pinOf(policy: TrustPolicy, person: TrustPerson): "trusted" | "untrusted" | null {
  const names = new Set([
    ...(person.account ? [person.account.toLowerCase()] : []),
    ...person.curatorKeys,
    // A pin may name a handle without its network, as people write it ("@erin.bsky.social").
    ...person.curatorKeys.map((key) => splitHandleKey(key).handle.toLowerCase()),
  ]);
  const listed = (list: string[] | undefined) => (list ?? []).some((name) => names.has(pinKey(name)));
  if (listed(policy.pinned?.untrusted)) return "untrusted";
  if (listed(policy.pinned?.trusted)) return "trusted";
  return null;
}

/**
 * A curator's last decided submissions in a feed, as trust counts them: rejections (and retractions) always; an
 * approval by someone else always; an auto- or self-approval only once a distinct person approved it too, or once it
 * stood for the policy's days without being retracted (so approving oneself never earns trust on its own).
 */
async function trustStats(tx: Database, feedId: string, policy: TrustPolicy, person: TrustPerson, now: SQL) {
  if (person.curatorKeys.length === 0) return { approved: 0, decided: 0 };
  const rows = await queryRows<{ status: string; counts: boolean | null; aged: boolean; confirmed: boolean }>(
    tx,
    sql`select sf.status, h.counts,
        h.created_at < ${now} - make_interval(days => ${policy.confirmAfterDays}) as aged,
        exists (select 1 from moderation_votes v where v.feed_id = sf.feed_id and v.submission_id = sf.submission_id
          and v.withdrawn_at is null and v.action = 'approve' and v.voter_key <> ${person.key}) as confirmed
      from submission_feeds sf
      join lateral (select mh.counts, mh.created_at from moderation_history mh
        where mh.submission_id = sf.submission_id and mh.feed_id = sf.feed_id and mh.undone_at is null
        order by mh.id desc limit 1) h on true
      where sf.feed_id = ${feedId} and sf.status in ('approved', 'rejected')
        and lower(sf.curator_username) in (${sql.join(
          person.curatorKeys.map((key) => sql`${key}`),
          sql`, `,
        )})
        ${policy.withinDays ? sql`and h.created_at >= ${now} - make_interval(days => ${policy.withinDays})` : sql``}
      order by h.created_at desc, sf.submission_id desc
      limit ${policy.lastDecided}`,
  );
  let approved = 0;
  let decided = 0;
  for (const row of rows) {
    if (row.status === "rejected") decided++;
    else if (row.counts !== false || row.confirmed || row.aged) {
      approved++;
      decided++;
    }
  }
  return { approved, decided };
}

/**
 * Evaluates a curator's trust in a feed now, in the caller's logged transaction, and keeps the verdict of anyone
 * trusted once or pinned: a change (a promotion or a demotion) is recorded with its reason and appended to the
 * feed's moderation log. Answers whether they are trusted. `asOf` is the moment the day windows end (the database's
 * clock unless the scheduled pass gives its own).
 */
export async function evaluateTrust(
  tx: Database,
  feedId: string,
  policy: TrustPolicy,
  person: TrustPerson,
  asOf?: Date,
): Promise<boolean> {
  const now = asOf ? sql`${asOf.toISOString()}::timestamptz` : sql`now()`;
  const stats = await trustStats(tx, feedId, policy, person, now);
  const pin = pinOf(policy, person);
  const verdict = trustVerdict(policy, stats, pin);
  const explanation = trustExplanation(policy, stats, verdict.reason);
  const [previous] = await tx
    .select({ trusted: curatorTrust.trusted })
    .from(curatorTrust)
    .where(and(eq(curatorTrust.feedId, feedId), eq(curatorTrust.personKey, person.key)))
    .for("update");
  // Only standings worth showing are kept: someone trusted once (or pinned). A curator who never reached the bar
  // has nothing to promote from, and the feed page lists no one for having submitted.
  if (!previous && !verdict.trusted && pin === null) return false;
  const changed = previous ? previous.trusted !== verdict.trusted : verdict.trusted;
  await tx
    .insert(curatorTrust)
    .values({
      feedId,
      personKey: person.key,
      curator: person.curator,
      account: person.account,
      trusted: verdict.trusted,
      pinned: pin,
      ...stats,
      explanation,
      ...(asOf ? { changedAt: asOf, evaluatedAt: asOf } : {}),
    })
    .onConflictDoUpdate({
      target: [curatorTrust.feedId, curatorTrust.personKey],
      set: {
        trusted: verdict.trusted,
        pinned: pin,
        approved: stats.approved,
        decided: stats.decided,
        explanation,
        evaluatedAt: now,
        ...(changed ? { changedAt: now } : {}),
      },
    });
  if (changed) {
    logLater(tx, [
      {
        feedId,
        action: verdict.trusted ? "promote" : "demote",
        via: "system",
        actor: { account: person.account, handle: person.handle },
        details: { ...stats, explanation, pinned: pin },
      },
    ]);
  }
  // Earned, not pinned: a pin says nothing of the record a higher bar asks for.
  if (verdict.trusted && pin === null) {
    await offerApproverRights(tx, feedId, policy, person, stats, explanation);
  }
  return verdict.trusted;
}

/**
 * After a trusted verdict: a curator over the policy's higher bar who is not already one of the feed's moderators
 * is offered approver rights, once (an offer the owners declined is not made again by itself). Nothing changes
 * for the curator until an owner confirms; the offer is an entry in the feed's moderation log.
 */
async function offerApproverRights(
  tx: Database,
  feedId: string,
  policy: TrustPolicy,
  person: TrustPerson,
  stats: TrustStats,
  explanation: string,
) {
  if (!overApproverBar(policy, stats)) return;
  const [existing] = await tx
    .select({ status: approverOffers.status })
    .from(approverOffers)
    .where(and(eq(approverOffers.feedId, feedId), eq(approverOffers.personKey, person.key)));
  if (existing) return;
  const [feed] = await tx
    .select({ createdBy: feeds.createdBy, admins: feeds.admins, config: feeds.config })
    .from(feeds)
    .where(eq(feeds.id, feedId));
  if (!feed) return;
  const reason = moderatorReason(feed, {
    nearAccountId: person.account,
    handles: person.curatorKeys.map((key) => splitHandleKey(key)),
  });
  if (reason !== "not_moderator") return;
  const inserted = await tx
    .insert(approverOffers)
    .values({
      feedId,
      personKey: person.key,
      curator: person.curator,
      account: person.account,
      handleKey: person.account ? null : person.curatorKeys[0],
      explanation,
    })
    .onConflictDoNothing()
    .returning({ personKey: approverOffers.personKey });
  if (inserted.length === 0) return;
  logLater(tx, [
    {
      feedId,
      action: "approver_offered",
      via: "system",
      actor: { account: person.account, handle: person.handle },
      details: { ...stats, explanation },
    },
  ]);
}

/**
 * Whether a curator (their key on the network they submit from) is trusted in a feed right now, evaluated afresh;
 * false without a query when the feed has trust off.
 */
export async function isTrustedCurator(
  tx: Database,
  feed: { id: string; config: unknown },
  curatorKey: string,
): Promise<boolean> {
  const policy = trustPolicyOf(feed.config);
  if (!policy) return false;
  return evaluateTrust(tx, feed.id, policy, await trustPersonOf(tx, curatorKey));
}

/**
 * After decisions, undos or retractions: the trust of each affected curator in feeds with trust on, evaluated again
 * (a promotion or demotion happens at the decision that causes it).
 */
export async function reevaluateCuratorsOf(
  tx: Database,
  links: ReadonlyArray<{ submissionId: string; feedId: string }>,
  known?: ReadonlyMap<string, Governance>,
) {
  if (links.length === 0) return;
  const governance =
    known ??
    (await governanceOf(
      tx,
      links.map((link) => link.feedId),
    ));
  const wanted = links.filter((link) => governance.get(link.feedId)?.trust);
  if (wanted.length === 0) return;
  const rows = await queryRows<{ feedId: string; curator: string | null }>(
    tx,
    sql`select distinct sf.feed_id as "feedId", lower(sf.curator_username) as curator from submission_feeds sf
      where (sf.submission_id, sf.feed_id) in (${sql.join(
        wanted.map((link) => sql`(${link.submissionId}, ${link.feedId})`),
        sql`, `,
      )}) order by 1, 2`,
  );
  const evaluated = new Set<string>();
  for (const row of rows) {
    const policy = governance.get(row.feedId)?.trust;
    if (!row.curator || !policy) continue;
    const person = await trustPersonOf(tx, row.curator);
    if (evaluated.has(`${row.feedId}\u0000${person.key}`)) continue;
    evaluated.add(`${row.feedId}\u0000${person.key}`);
    await evaluateTrust(tx, row.feedId, policy, person);
  }
}

/** Standings evaluated per transaction by the scheduled pass: one log append per batch, short row locks. */
const STANDINGS_PER_BATCH = 100;

/**
 * The scheduled pass: every kept standing that no pin decides, in feeds with trust on, evaluated again as of `at`.
 * A curator whose approvals leave the policy's day window is demoted (and one whose self-approvals reach their
 * confirmation age promoted) without waiting for their next submission or decision; a standing that does not change
 * logs nothing, so a second pass at the same clock changes nothing.
 */
export async function reevaluateStandings(
  db: Database,
  at: Date,
): Promise<{ evaluated: number; changed: number }> {
  const trustFeeds = await db
    .select({ id: feeds.id, config: feeds.config })
    .from(feeds)
    .where(sql`(${feeds.config}->'moderation'->'trust'->>'enabled') = 'true'`)
    .orderBy(feeds.id);
  let evaluated = 0;
  let changed = 0;
  for (const feed of trustFeeds) {
    const policy = trustPolicyOf(feed.config);
    if (!policy) continue;
    let after = "";
    for (;;) {
      const standings = await db
        .select({
          personKey: curatorTrust.personKey,
          curator: curatorTrust.curator,
          trusted: curatorTrust.trusted,
        })
        .from(curatorTrust)
        .where(
          and(
            eq(curatorTrust.feedId, feed.id),
            isNull(curatorTrust.pinned),
            gt(curatorTrust.personKey, after),
          ),
        )
        .orderBy(curatorTrust.personKey)
        .limit(STANDINGS_PER_BATCH);
      if (standings.length === 0) break;
      changed += await withModerationLog(db, async (tx) => {
        let flipped = 0;
        for (const standing of standings) {
          const trusted = await evaluateTrust(
            tx,
            feed.id,
            policy,
            await trustPersonOf(tx, standing.curator),
            at,
          );
          if (trusted !== standing.trusted) flipped++;
        }
        return flipped;
      });
      evaluated += standings.length;
      after = standings[standings.length - 1].personKey;
    }
  }
  return { evaluated, changed };
}

/** How a policy pins a name: in, out, or not at all. */
function pinStateOf(policy: TrustPolicy | null, name: string): "trusted" | "untrusted" | null {
  if ((policy?.pinned?.untrusted ?? []).some((pinned) => pinKey(pinned) === name)) return "untrusted";
  if ((policy?.pinned?.trusted ?? []).some((pinned) => pinKey(pinned) === name)) return "trusted";
  return null;
}

/**
 * After a feed's save: curators pinned or unpinned by it are evaluated at once (a pin takes effect when saved;
 * everyone else's standing follows their next submission or decision).
 */
export async function reevaluatePins(
  tx: Database,
  feedId: string,
  before: TrustPolicy | null,
  after: TrustPolicy | null,
) {
  if (!after) return;
  const names = new Set(
    [before, after].flatMap((policy) => [
      ...(policy?.pinned?.trusted ?? []),
      ...(policy?.pinned?.untrusted ?? []),
    ]),
  );
  const changed = [...names]
    .map(pinKey)
    .filter((name) => pinStateOf(before, name) !== pinStateOf(after, name));
  for (const name of [...new Set(changed)].sort()) {
    await evaluateTrust(tx, feedId, after, await trustPersonOf(tx, name));
  }
}

/**
 * GET /api/trust: a feed's curators (the feed page: trusted first, then by last change), or a curator's standing in
 * every feed with trust on (their profile: an account, or a handle key).
 */
export async function listTrust(db: Database, query: TrustQuery): Promise<Paged<CuratorTrust>> {
  const conditions: SQL[] = [sql`(${feeds.config}->'moderation'->'trust'->>'enabled') = 'true'`];
  if (query.feedId) conditions.push(eq(curatorTrust.feedId, query.feedId));
  if (query.curator) {
    const name = pinKey(query.curator);
    conditions.push(
      or(
        eq(sql`lower(${curatorTrust.account})`, name),
        eq(curatorTrust.curator, name),
        inArray(curatorTrust.personKey, [`near:${name}`, `handle:${name}`]),
      ) as SQL,
    );
  }
  if (query.trusted) conditions.push(eq(curatorTrust.trusted, query.trusted === "true"));
  const where = and(...conditions);
  const rows = await db
    .select({ trust: curatorTrust, feedName: feeds.name })
    .from(curatorTrust)
    .innerJoin(feeds, eq(feeds.id, curatorTrust.feedId))
    .where(where)
    .orderBy(desc(curatorTrust.trusted), desc(curatorTrust.changedAt), curatorTrust.personKey)
    .limit(query.limit + 1)
    .offset(query.page * query.limit);
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(curatorTrust)
    .innerJoin(feeds, eq(feeds.id, curatorTrust.feedId))
    .where(where);
  return {
    items: rows.slice(0, query.limit).map(({ trust, feedName }) => ({
      feedId: trust.feedId,
      feedName,
      curator: trust.curator,
      account: trust.account,
      trusted: trust.trusted,
      pinned: trust.pinned,
      approved: trust.approved,
      decided: trust.decided,
      explanation: trust.explanation,
      changedAt: trust.changedAt.toISOString(),
      evaluatedAt: trust.evaluatedAt.toISOString(),
    })),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: rows.length > query.limit,
      totalCount: Number(count),
    },
  };
}
