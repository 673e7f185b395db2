import type { LogAction, LogActor, LogEntry, LogField, LogVia } from "@curate/core";
import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { actingApiToken } from "../auth/scopes.ts";
import { bulkInsert } from "../db/bulk-insert.ts";
import type { Database } from "../db/index.ts";
import {
  feeds,
  moderationHistory,
  moderationLogEntries,
  moderationLogHeads,
  type StoredLogField,
} from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { canonical, contentDigest, entryHash, fieldDigest, GENESIS_PREV, newSalt, sha256 } from "./chain.ts";

/** An entry to append: what happened in which feed, who did it, from where, and to what. */
export interface LogDraft {
  feedId: string;
  action: Exclude<LogAction, "genesis">;
  via: LogVia;
  network?: string | null;
  actor?: LogActor | null;
  /** The submission it is about. */
  item?: string | null;
  note?: string | null;
  details?: Record<string, unknown> | null;
}

type EntryRow = typeof moderationLogEntries.$inferInsert;
type StoredEntry = typeof moderationLogEntries.$inferSelect;

/** The drafts of each open logged transaction, appended when its work is done. */
const drafts = new WeakMap<Database, LogDraft[]>();

/**
 * Runs `work` in a transaction whose moderation decisions are logged: what it records with `logLater` is appended
 * at its end, after every row it locks, so the feeds' head rows are always taken last (in one order) and two
 * transactions never wait for each other in a circle.
 */
export function withModerationLog<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    drafts.set(tx, []);
    const result = await work(tx);
    await appendToLog(tx, drafts.get(tx) ?? []);
    return result;
  });
}

/**
 * Records entries for the end of the current logged transaction. What a person did "in the app" during a request
 * made with an API token says "via API token" instead, whichever service wrote it (which token stays private).
 */
export function logLater(tx: Database, entries: readonly LogDraft[]) {
  const pending = drafts.get(tx);
  if (!pending) {
    throw new Error(
      "A moderation change was written outside withModerationLog: it would be missing from the log.",
    );
  }
  const byToken = actingApiToken() !== null;
  pending.push(
    ...entries.map((entry) =>
      byToken && entry.via === "app" ? { ...entry, via: "api_token" as const } : entry,
    ),
  );
}

function storedField(name: LogField, value: unknown, hidden = false): StoredLogField {
  const salt = newSalt();
  return {
    digest: fieldDigest(name, salt, value),
    value,
    salt,
    ...(hidden ? { private: true as const } : {}),
  };
}

/** The parts of a draft as stored; `actorHidden` keeps who acted from public view. */
function draftFields(draft: LogDraft, actorHidden: boolean): Record<string, StoredLogField> {
  const fields: Record<string, StoredLogField> = {};
  if (draft.actor) fields.actor = storedField("actor", draft.actor, actorHidden);
  if (draft.item) fields.item = storedField("item", draft.item);
  if (draft.note) fields.note = storedField("note", draft.note);
  if (draft.details) fields.details = storedField("details", draft.details);
  return fields;
}

const lower = (value: string | null | undefined) => value?.trim().replace(/^@+/, "").toLowerCase() || null;

interface Head {
  seq: number;
  hash: string;
  atMs: number;
}

/** An entry row with its hash, following `head`. */
function chained(
  feedId: string,
  head: Head | null,
  atMs: number,
  entry: Pick<EntryRow, "action" | "via" | "network" | "actorAccount" | "actorHandle" | "submissionId"> & {
    fields: Record<string, StoredLogField>;
  },
): EntryRow {
  const seq = head ? head.seq + 1 : 0;
  const at = new Date(head ? Math.max(atMs, head.atMs) : atMs);
  const prev = head?.hash ?? GENESIS_PREV;
  const digests = Object.fromEntries(
    Object.entries(entry.fields).map(([name, field]) => [name, field.digest]),
  );
  const hash = entryHash({
    feed: feedId,
    seq,
    at: at.toISOString(),
    action: entry.action,
    via: entry.via,
    network: entry.network ?? null,
    prev,
    content: contentDigest(digests),
  });
  return { feedId, seq, at, prevHash: prev, hash, ...entry, network: entry.network ?? null };
}

/**
 * A digest of the feed's moderation history written before its log began (rows of the current transaction
 * excluded: those are logged as entries of their own): the genesis commits to it, so that history cannot be
 * rewritten unnoticed by anyone who kept a copy.
 */
async function historyBefore(tx: Database, feedId: string) {
  const digest = { count: 0, through: null as number | null, chain: sha256("") };
  for (;;) {
    const rows = await tx
      .select({
        id: moderationHistory.id,
        submissionId: moderationHistory.submissionId,
        action: moderationHistory.action,
        moderatorAccountId: moderationHistory.moderatorAccountId,
        moderatorAccountIdType: moderationHistory.moderatorAccountIdType,
        source: moderationHistory.source,
        retraction: moderationHistory.retraction,
        note: moderationHistory.note,
        createdAt: moderationHistory.createdAt,
      })
      .from(moderationHistory)
      .where(
        and(
          eq(moderationHistory.feedId, feedId),
          lt(moderationHistory.createdAt, sql`now()`),
          digest.through === null ? undefined : gt(moderationHistory.id, digest.through),
        ),
      )
      .orderBy(asc(moderationHistory.id))
      .limit(2000);
    for (const row of rows) {
      digest.chain = sha256(
        `${digest.chain}\n${canonical({ ...row, createdAt: row.createdAt.toISOString() })}`,
      );
      digest.count++;
      digest.through = row.id;
    }
    if (rows.length < 2000) break;
  }
  return { count: digest.count, through: digest.through, digest: digest.chain };
}

/** Locks the feeds' heads (in feed order) and answers them with the database's clock, read once they are held. */
async function lockHeads(tx: Database, feedIds: string[]) {
  const rows = await queryRows<{ feedId: string; seq: number | string; hash: string; atMs: number | string }>(
    tx,
    sql`select feed_id as "feedId", seq, hash, floor(extract(epoch from at) * 1000)::float8 as "atMs"
      from moderation_log_heads where feed_id in (${sql.join(
        feedIds.map((id) => sql`${id}`),
        sql`, `,
      )}) order by feed_id for update`,
  );
  const [clock] = await queryRows<{ nowMs: number | string }>(
    tx,
    sql`select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as "nowMs"`,
  );
  const heads = new Map<string, Head>(
    rows.map((row) => [row.feedId, { seq: Number(row.seq), hash: row.hash, atMs: Number(row.atMs) }]),
  );
  return { heads, nowMs: Number(clock.nowMs) };
}

/**
 * Opens a feed's log with its genesis entry, unless another transaction just did (then its head is locked and
 * answered instead).
 */
async function openLog(tx: Database, feedId: string, nowMs: number): Promise<Head> {
  const genesis = chained(feedId, null, nowMs, {
    action: "genesis",
    via: "system",
    network: null,
    actorAccount: null,
    actorHandle: null,
    submissionId: null,
    fields: { history: storedField("history", await historyBefore(tx, feedId)) },
  });
  const [created] = await tx
    .insert(moderationLogHeads)
    .values({ feedId, seq: 0, hash: genesis.hash, at: genesis.at })
    .onConflictDoNothing()
    .returning({ feedId: moderationLogHeads.feedId });
  if (created) {
    await tx.insert(moderationLogEntries).values(genesis);
    return { seq: 0, hash: genesis.hash, atMs: genesis.at.getTime() };
  }
  const { heads } = await lockHeads(tx, [feedId]);
  return heads.get(feedId) as Head;
}

/** Feeds whose rejections stay anonymous in the log (`moderation.nameRejectersInLog: false`). */
async function anonymousRejections(tx: Database, feedIds: string[]): Promise<Set<string>> {
  const rows = await tx
    .select({ id: feeds.id, named: sql<unknown>`${feeds.config}->'moderation'->'nameRejectersInLog'` })
    .from(feeds)
    .where(inArray(feeds.id, feedIds));
  return new Set(rows.filter((row) => row.named === false).map((row) => row.id));
}

/** A rejection, a retraction, or a quorum feed's vote to reject: what `nameRejectersInLog: false` keeps anonymous. */
function isRejection(draft: LogDraft): boolean {
  return (
    draft.action === "reject" ||
    draft.action === "retract" ||
    (draft.action === "vote" && draft.details?.vote === "reject")
  );
}

const ROWS_PER_INSERT = 500;

/**
 * Appends entries to their feeds' logs in the caller's transaction: each feed's head row is locked (feeds in one
 * order; a feed without a log gets its genesis first), the entries are chained after it in the order given, and
 * the heads move on. One statement per step whatever the number of entries, so intake's batches stay fast.
 */
export async function appendToLog(tx: Database, entries: readonly LogDraft[]): Promise<EntryRow[]> {
  if (entries.length === 0) return [];
  const feedIds = [...new Set(entries.map((entry) => entry.feedId))].sort();
  const { heads, nowMs } = await lockHeads(tx, feedIds);
  for (const feedId of feedIds) if (!heads.has(feedId)) heads.set(feedId, await openLog(tx, feedId, nowMs));
  const anonymous = entries.some(isRejection) ? await anonymousRejections(tx, feedIds) : new Set<string>();

  const rows = entries.map((draft) => {
    const actorHidden = anonymous.has(draft.feedId) && isRejection(draft);
    const row = chained(draft.feedId, heads.get(draft.feedId) as Head, nowMs, {
      action: draft.action,
      via: draft.via,
      network: draft.network ?? null,
      actorAccount: actorHidden ? null : lower(draft.actor?.account),
      actorHandle: actorHidden ? null : lower(draft.actor?.handle),
      submissionId: draft.item ?? null,
      fields: draftFields(draft, actorHidden),
    });
    heads.set(draft.feedId, { seq: row.seq, hash: row.hash, atMs: (row.at as Date).getTime() });
    return row;
  });
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await tx.execute(bulkInsert(moderationLogEntries, rows.slice(start, start + ROWS_PER_INSERT)));
  }
  const moved = feedIds.map((feedId) => ({ feedId, ...(heads.get(feedId) as Head) }));
  await tx.execute(sql`update moderation_log_heads h set seq = v.seq, hash = v.hash, at = v.at
    from (values ${sql.join(
      moved.map(
        (head) =>
          sql`(${head.feedId}, ${head.seq}::bigint, ${head.hash}, ${new Date(head.atMs).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    )}) as v(feed_id, seq, hash, at)
    where h.feed_id = v.feed_id`);
  return rows;
}

/** Opens the log of every feed that has none yet (at start-up: feeds from before the log, demo data). */
export async function openMissingLogs(db: Database): Promise<number> {
  const missing = await queryRows<{ id: string }>(
    db,
    sql`select id from feeds f where not exists (select 1 from moderation_log_heads h where h.feed_id = f.id)
      order by id`,
  );
  for (const { id } of missing) {
    await db.transaction(async (tx) => {
      const { heads, nowMs } = await lockHeads(tx, [id]);
      if (!heads.has(id)) await openLog(tx, id, nowMs);
    });
  }
  return missing.length;
}

/** An entry as everyone reads it: withheld parts show their digest only. */
export function publicEntry(row: StoredEntry): LogEntry {
  return entryOf(row, false);
}

/** An entry with its private parts too: what the server's own check recomputes. */
export function fullEntry(row: StoredEntry): LogEntry {
  return entryOf(row, true);
}

function entryOf(row: StoredEntry, withPrivate: boolean): LogEntry {
  const fields: LogEntry["fields"] = {};
  for (const [name, field] of Object.entries(row.fields)) {
    if (field.redactedBy !== undefined) {
      fields[name] = { digest: field.digest, withheld: "redacted", redactedBy: field.redactedBy };
    } else if (field.private && !withPrivate) {
      fields[name] = { digest: field.digest, withheld: "private" };
    } else {
      fields[name] = { digest: field.digest, value: field.value ?? null, salt: field.salt };
    }
  }
  return {
    feed: row.feedId,
    seq: row.seq,
    at: row.at.toISOString(),
    action: row.action,
    via: row.via,
    network: row.network,
    prev: row.prevHash,
    hash: row.hash,
    fields,
  };
}
