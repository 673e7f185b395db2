import {
  type LogEntry,
  type LogIntegrity,
  type LogPage,
  type LogRedactRequest,
  type LogSignature,
  type logQuerySchema,
  normaliseFeedId,
} from "@curate/core";
import { and, asc, desc, eq, gt, gte, isNotNull, lt, lte, max, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { z } from "zod";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import {
  feeds,
  moderationLogChecks,
  moderationLogEntries,
  moderationLogHeads,
  moderationLogKeys,
  moderationLogSignatures,
} from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { assertCanManageFeed, canManageFeed } from "../feeds/permissions.ts";
import type { LogSelfCheck } from "../operations/log-check.ts";
import { type ChainReport, ChainVerifier } from "./chain.ts";
import { appendToLog, fullEntry, publicEntry } from "./journal.ts";
import { type LogSigner, rememberSigningKey } from "./keys.ts";

type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">;
type SignatureRow = typeof moderationLogSignatures.$inferSelect;

/** A feed's log is as public as the feed: a quarantined feed's only for those who may fix it. */
async function readableFeed(db: Database, env: Env, viewer: User | null, feedId: string): Promise<string> {
  const id = normaliseFeedId(feedId);
  const [feed] = await db
    .select({ id: feeds.id, quarantined: isNotNull(feeds.secretFindings) })
    .from(feeds)
    .where(eq(feeds.id, id));
  const readable = feed && (!feed.quarantined || (viewer && (await canManageFeed(db, env, id, viewer))));
  if (!readable) throw AppError.notFound(`Feed "${id}" not found.`);
  return id;
}

export function signatureOf(row: SignatureRow): LogSignature {
  return {
    feed: row.feedId,
    seq: row.seq,
    hash: row.hash,
    signedAt: row.signedAt.toISOString(),
    key: row.keyId,
    signature: row.signature,
  };
}

async function integrityOf(db: Database, feedId: string): Promise<LogIntegrity> {
  const [check] = await db.select().from(moderationLogChecks).where(eq(moderationLogChecks.feedId, feedId));
  if (!check)
    return { status: "unchecked", checkedAt: null, checkedThrough: null, brokenAt: null, problem: null };
  return {
    status: check.brokenAt === null ? "ok" : "broken",
    checkedAt: check.checkedAt.toISOString(),
    checkedThrough: check.checkedThrough,
    brokenAt: check.brokenAt,
    problem: check.problem,
  };
}

const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * A page of a feed's moderation log for anyone, newest or oldest first, after the cursor of the page before, with
 * the tab's filters (action, moderator, network, UTC days): entries as everyone reads them, the head, the latest
 * signed head and what the server's own check last found.
 */
export async function readLog(
  db: Database,
  env: Env,
  viewer: User | null,
  feedId: string,
  query: z.output<typeof logQuerySchema>,
) {
  const id = await readableFeed(db, env, viewer, feedId);
  const { cursor, limit, order, action, moderator, network, from, to } = query;
  const newest = order === "newest";
  const who = moderator?.replace(/^@+/, "").toLowerCase();
  const rows = await db
    .select()
    .from(moderationLogEntries)
    .where(
      and(
        eq(moderationLogEntries.feedId, id),
        cursor === undefined
          ? undefined
          : newest
            ? lt(moderationLogEntries.seq, cursor)
            : gt(moderationLogEntries.seq, cursor),
        action ? eq(moderationLogEntries.action, action) : undefined,
        who
          ? or(eq(moderationLogEntries.actorAccount, who), eq(moderationLogEntries.actorHandle, who))
          : undefined,
        network ? eq(moderationLogEntries.network, network) : undefined,
        from ? gte(moderationLogEntries.at, startOfDay(from)) : undefined,
        to ? lt(moderationLogEntries.at, new Date(startOfDay(to).getTime() + 86_400_000)) : undefined,
      ),
    )
    .orderBy(newest ? desc(moderationLogEntries.seq) : asc(moderationLogEntries.seq))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  const [head] = await db.select().from(moderationLogHeads).where(eq(moderationLogHeads.feedId, id));
  const [signature] = await db
    .select()
    .from(moderationLogSignatures)
    .where(eq(moderationLogSignatures.feedId, id))
    .orderBy(desc(moderationLogSignatures.seq))
    .limit(1);
  const page: LogPage = {
    feedId: id,
    items: items.map(publicEntry),
    pagination: {
      limit,
      hasNextPage: rows.length > limit,
      nextCursor: rows.length > limit ? String(items[items.length - 1].seq) : null,
    },
    head: head ? { seq: head.seq, hash: head.hash, at: head.at.toISOString() } : null,
    signature: signature ? signatureOf(signature) : null,
    integrity: await integrityOf(db, id),
  };
  return page;
}

const PAGE_ROWS = 1000;

/** A feed's entries from `after` on (up to `through`), oldest first, a page at a time. */
async function* storedEntries(
  db: Database,
  feedId: string,
  after: number,
  through = Number.MAX_SAFE_INTEGER,
) {
  let last = after;
  for (;;) {
    const rows = await db
      .select()
      .from(moderationLogEntries)
      .where(
        and(
          eq(moderationLogEntries.feedId, feedId),
          gt(moderationLogEntries.seq, last),
          lte(moderationLogEntries.seq, through),
        ),
      )
      .orderBy(asc(moderationLogEntries.seq))
      .limit(PAGE_ROWS);
    yield* rows;
    if (rows.length < PAGE_ROWS) return;
    last = rows[rows.length - 1].seq;
  }
}

/**
 * The whole log of a feed as JSON Lines, what `verify-log` checks: a header, the instance's keys as published now,
 * every signed head, every entry oldest first, and an end line with the counts (a cut-off copy shows). It is read
 * up to the head at the start, so entries appended meanwhile wait for the next download.
 */
export async function downloadLog(
  db: Database,
  env: Env,
  viewer: User | null,
  feedId: string,
  keys: { url: string; document: () => Promise<unknown> },
): Promise<{ feedId: string; lines: AsyncGenerator<string> }> {
  const id = await readableFeed(db, env, viewer, feedId);
  const [head] = await db.select().from(moderationLogHeads).where(eq(moderationLogHeads.feedId, id));
  const through = head?.seq ?? -1;
  async function* lines() {
    yield JSON.stringify({
      format: "curate-moderation-log",
      version: 1,
      feed: id,
      exportedAt: new Date().toISOString(),
      keys: keys.url,
      head: head ? { seq: head.seq, hash: head.hash } : null,
    });
    yield JSON.stringify({ keys: await keys.document() });
    const signatures = await db
      .select()
      .from(moderationLogSignatures)
      .where(and(eq(moderationLogSignatures.feedId, id), lte(moderationLogSignatures.seq, through)))
      .orderBy(asc(moderationLogSignatures.seq));
    for (const signature of signatures) yield JSON.stringify({ signature: signatureOf(signature) });
    let entries = 0;
    for await (const row of storedEntries(db, id, -1, through)) {
      yield JSON.stringify({ entry: publicEntry(row) });
      entries++;
    }
    yield JSON.stringify({ end: { entries, signatures: signatures.length } });
  }
  return { feedId: id, lines: lines() };
}

/**
 * Withholds parts of an entry for good (a note, the item, who did it — for legal reasons, say), for the feed's
 * managers: their values and salts are deleted, their digests stay, so the chain still verifies. The redaction is
 * itself an entry (who, which entry, which parts, why); the log's genesis and redactions cannot be redacted.
 */
export async function redactEntry(
  db: Database,
  env: Env,
  user: User,
  feedId: string,
  seq: number,
  request: LogRedactRequest,
): Promise<{ entry: LogEntry; redaction: LogEntry }> {
  const id = normaliseFeedId(feedId);
  await assertCanManageFeed(db, env, id, user);
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select()
      .from(moderationLogEntries)
      .where(and(eq(moderationLogEntries.feedId, id), eq(moderationLogEntries.seq, seq)))
      .for("update");
    if (!target) throw AppError.notFound(`The moderation log of "${id}" has no entry ${seq}.`);
    if (target.action === "genesis" || target.action === "redact") {
      throw AppError.conflict("The log's genesis and its redactions cannot be redacted.");
    }
    const fields = request.fields.filter(
      (name) => target.fields[name] && target.fields[name].redactedBy === undefined,
    );
    if (fields.length === 0) {
      throw AppError.conflict(`Entry ${seq} holds nothing of ${request.fields.join(", ")} left to redact.`);
    }
    const [redaction] = await appendToLog(tx, [
      {
        feedId: id,
        action: "redact",
        via: "app",
        actor: { account: user.nearAccountId, handle: null },
        note: request.reason,
        details: { entry: seq, fields },
      },
    ]);
    const redactedBy = redaction.seq as number;
    const kept = { ...target.fields };
    for (const name of fields) kept[name] = { digest: target.fields[name].digest, redactedBy };
    const [entry] = await tx
      .update(moderationLogEntries)
      .set({
        fields: kept,
        ...(fields.includes("actor") ? { actorAccount: null, actorHandle: null } : {}),
        ...(fields.includes("item") ? { submissionId: null } : {}),
      })
      .where(and(eq(moderationLogEntries.feedId, id), eq(moderationLogEntries.seq, seq)))
      .returning();
    return { entry: publicEntry(entry), redaction: publicEntry(redaction as typeof entry) };
  });
}

async function keysById(db: Database): Promise<Map<string, Buffer>> {
  const rows = await db.select().from(moderationLogKeys);
  return new Map(rows.map((row) => [row.id, Buffer.from(row.publicKey, "base64")]));
}

/**
 * Checks a feed's stored entries from `after` (a head already checked and signed) to its head row, with the
 * private parts too, and the signatures among them.
 */
async function verifyStored(
  db: Database,
  feedId: string,
  keys: ReadonlyMap<string, Buffer>,
  after?: { seq: number; hash: string },
): Promise<ChainReport> {
  const signatures = (
    await db
      .select()
      .from(moderationLogSignatures)
      .where(
        and(eq(moderationLogSignatures.feedId, feedId), gt(moderationLogSignatures.seq, after?.seq ?? -1)),
      )
  ).map(signatureOf);
  const verifier = new ChainVerifier(feedId, signatures, keys, after);
  for await (const row of storedEntries(db, feedId, after?.seq ?? -1)) {
    if (!verifier.add(fullEntry(row))) break;
  }
  const report = verifier.finish();
  if (report.break) return report;
  const [head] = await db.select().from(moderationLogHeads).where(eq(moderationLogHeads.feedId, feedId));
  if (head && (head.seq !== report.head?.seq || head.hash !== report.head?.hash)) {
    const end = report.head?.seq ?? -1;
    return {
      ...report,
      break: {
        seq: Math.min(head.seq, end + 1),
        problem: `the log's head names entry ${head.seq}, but its entries end at ${end} with another hash.`,
      },
    };
  }
  return report;
}

async function recordCheck(db: Database, feedId: string, report: ChainReport) {
  const values = {
    checkedAt: new Date(),
    checkedThrough: report.head?.seq ?? null,
    brokenAt: report.break?.seq ?? null,
    problem: report.break?.problem ?? null,
  };
  await db
    .insert(moderationLogChecks)
    .values({ feedId, ...values })
    .onConflictDoUpdate({ target: moderationLogChecks.feedId, set: values });
}

function reportBreak(logger: Logger, feedId: string, report: ChainReport) {
  logger.error(
    { feedId, entry: report.break?.seq, problem: report.break?.problem },
    `the moderation log of "${feedId}" is broken at entry ${report.break?.seq}: ${report.break?.problem}`,
  );
}

/**
 * Signs the head of every log that received entries since its last signature, after checking those entries follow
 * the signed head (a broken log is reported, never signed; nor is one the self-check found broken). Answers how
 * many heads it signed.
 */
export async function signHeads(db: Database, signer: LogSigner, logger: Logger): Promise<number> {
  const due = await db
    .select({ feedId: moderationLogHeads.feedId, last: max(moderationLogSignatures.seq) })
    .from(moderationLogHeads)
    .leftJoin(moderationLogSignatures, eq(moderationLogSignatures.feedId, moderationLogHeads.feedId))
    // A log the self-check found broken stays unsigned until it checks whole again.
    .where(
      sql`not exists (select 1 from ${moderationLogChecks} c where c.feed_id = ${moderationLogHeads.feedId}
        and c.broken_at is not null)`,
    )
    .groupBy(moderationLogHeads.feedId, moderationLogHeads.seq)
    .having(sql`coalesce(max(${moderationLogSignatures.seq}), -1) < ${moderationLogHeads.seq}`)
    .orderBy(asc(moderationLogHeads.feedId));
  if (due.length === 0) return 0;
  await rememberSigningKey(db, signer);
  const keys = await keysById(db);
  let signed = 0;
  for (const { feedId, last } of due) {
    const [previous] =
      last === null
        ? []
        : await db
            .select()
            .from(moderationLogSignatures)
            .where(
              and(eq(moderationLogSignatures.feedId, feedId), eq(moderationLogSignatures.seq, Number(last))),
            );
    const report = await verifyStored(
      db,
      feedId,
      keys,
      previous && { seq: previous.seq, hash: previous.hash },
    );
    if (report.break || !report.head) {
      if (report.break) {
        await recordCheck(db, feedId, report);
        reportBreak(logger, feedId, report);
      }
      continue;
    }
    const signature = signer.sign({
      feed: feedId,
      seq: report.head.seq,
      hash: report.head.hash,
      signedAt: new Date().toISOString(),
    });
    const inserted = await db
      .insert(moderationLogSignatures)
      .values({
        feedId,
        seq: signature.seq,
        hash: signature.hash,
        signedAt: new Date(signature.signedAt),
        keyId: signature.key,
        signature: signature.signature,
      })
      .onConflictDoNothing()
      .returning({ seq: moderationLogSignatures.seq });
    signed += inserted.length;
  }
  return signed;
}

/** Recomputes one feed's whole stored log and its signatures, and records what it found. */
export async function checkFeedLog(db: Database, feedId: string, logger: Logger): Promise<ChainReport> {
  const report = await verifyStored(db, feedId, await keysById(db));
  await recordCheck(db, feedId, report);
  if (report.break) reportBreak(logger, feedId, report);
  return report;
}

/** The background self-check: every feed's log, as `verify-log` would check it, with the private parts too. */
export async function checkAllLogs(
  db: Database,
  logger: Logger,
): Promise<{ checked: number; broken: number }> {
  const heads = await db
    .select({ feedId: moderationLogHeads.feedId })
    .from(moderationLogHeads)
    .orderBy(asc(moderationLogHeads.feedId));
  let broken = 0;
  for (const { feedId } of heads) if ((await checkFeedLog(db, feedId, logger)).break) broken++;
  return { checked: heads.length, broken };
}

/** What /api/health says of the logs: when the self-check last ran and the feeds it found broken. */
export async function logHealth(db: Database) {
  const broken = await db
    .select({
      feedId: moderationLogChecks.feedId,
      brokenAt: moderationLogChecks.brokenAt,
      problem: moderationLogChecks.problem,
    })
    .from(moderationLogChecks)
    .where(isNotNull(moderationLogChecks.brokenAt))
    .orderBy(asc(moderationLogChecks.feedId))
    .limit(20);
  const [latest] = await db.select({ at: max(moderationLogChecks.checkedAt) }).from(moderationLogChecks);
  return {
    status: broken.length ? ("broken" as const) : latest?.at ? ("ok" as const) : ("unchecked" as const),
    checkedAt: latest?.at ? new Date(latest.at).toISOString() : null,
    broken: broken.map((row) => ({
      feedId: row.feedId,
      entry: row.brokenAt as number,
      problem: row.problem ?? "",
    })),
  };
}

/** The self-check as the Operations page and its alerts read it: the latest finished check of every feed's log. */
export function moderationLogSelfCheck(db: Database): LogSelfCheck {
  return {
    async status() {
      const health = await logHealth(db);
      if (!health.checkedAt) return null;
      return {
        state: health.broken.length ? "broken" : "ok",
        checkedAt: new Date(health.checkedAt),
        brokenFeeds: health.broken.map((feed) => feed.feedId),
        ...(health.broken.length
          ? {
              message: health.broken
                .map((feed) => `#${feed.feedId} breaks at entry ${feed.entry}: ${feed.problem}`)
                .join("; "),
            }
          : {}),
      };
    },
  };
}
