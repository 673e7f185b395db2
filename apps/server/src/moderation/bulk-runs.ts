import { randomUUID } from "node:crypto";
import {
  BULK_RUN_LIMIT,
  type BulkDecisionOutcome,
  type BulkRun,
  type BulkRunListQuery,
  type BulkRunRequest,
  type BulkRunUndoAnswer,
  normaliseFeedId,
  type Paged,
} from "@curate/core";
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { bulkRunItems, bulkRuns } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { logLater, withModerationLog } from "../moderation-log/journal.ts";
import {
  assertModerator,
  BULK_CHUNK,
  decideChunk,
  decidedInTheApp,
  pendingMatchesSql,
  undoChunk,
} from "./service.ts";

/** The channel a started run notifies, so a worker relays it into its queue at once. */
export const BULK_RUN_REQUESTED_CHANNEL = "curate_bulk_run_requested";

/**
 * The default pause between two chunks of a run (100 posts): 2,500 posts wait a quarter of a second in all. An
 * operator sets BULK_RUN_CHUNK_PAUSE_MS to spread a run out further.
 */
const DEFAULT_CHUNK_PAUSE_MS = 10;

type BulkRunRow = typeof bulkRuns.$inferSelect;
type Env = Pick<AppEnv, "SUPER_ADMIN_ACCOUNTS">;

export function toBulkRun(row: BulkRunRow): BulkRun {
  const finishedInWindow =
    row.state === "completed" &&
    row.firstUndoUntil !== null &&
    row.finishedAt !== null &&
    row.finishedAt < row.firstUndoUntil;
  return {
    id: row.id,
    feedId: row.feedId,
    action: row.action,
    note: row.note,
    query: row.query,
    platform: row.platform,
    requestedBy: row.requestedBy,
    state: row.state,
    total: row.total,
    decided: row.decided,
    alreadyDecided: row.alreadyDecided,
    failed: row.failed,
    undoUntil: finishedInWindow && row.undone === 0 ? (row.firstUndoUntil?.toISOString() ?? null) : null,
    undoMissed: row.state === "completed" && row.firstUndoUntil !== null && !finishedInWindow,
    undone: row.undone,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Starts a background bulk decision over every pending post of the feed the search matches (taken now, at most
 * BULK_RUN_LIMIT): the run and its items are written in one transaction, and a worker decides them. One run at a
 * time per feed (a second is a 409).
 */
export async function startBulkRun(
  db: Database,
  env: Env,
  user: User,
  request: BulkRunRequest,
): Promise<BulkRun> {
  const feedId = normaliseFeedId(request.feedId);
  const right = await assertModerator(db, env, feedId, user);
  const matches = pendingMatchesSql(feedId, request.filter);
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 ${matches} limit ${BULK_RUN_LIMIT + 1}) m`,
  );
  if (n === 0) throw AppError.validation("No pending posts match: there is nothing to decide.");
  if (n > BULK_RUN_LIMIT) {
    throw AppError.validation(
      `More than ${BULK_RUN_LIMIT.toLocaleString("en-US")} pending posts match: decide at most ${BULK_RUN_LIMIT.toLocaleString("en-US")} in one run (narrow the search).`,
    );
  }
  const actor = decidedInTheApp(user, right.reason);
  return withModerationLog(db, async (tx) => {
    const id = randomUUID();
    const [run] = await tx
      .insert(bulkRuns)
      .values({
        id,
        feedId,
        action: request.action,
        note: request.note?.trim() || null,
        query: request.filter.q || null,
        platform: request.filter.platform ?? null,
        requestedBy: actor.moderatorAccountId,
        source: actor.source,
      })
      .onConflictDoNothing()
      .returning();
    if (!run) {
      throw AppError.conflict(
        `A bulk decision is already running in "${feedId}": wait for it to finish before starting another.`,
      );
    }
    // The posts are taken now, in the order the curation tab lists them; the worker decides them in that order.
    await tx.execute(sql`insert into bulk_run_items (run_id, position, submission_id)
      select ${id}, row_number() over (order by sf.submitted_at desc, sf.submission_id), sf.submission_id
      ${matches} order by sf.submitted_at desc, sf.submission_id limit ${BULK_RUN_LIMIT}`);
    const [started] = await tx
      .update(bulkRuns)
      .set({
        total: sql`(select count(*)::int from ${bulkRunItems} where ${bulkRunItems.runId} = ${id})`,
      })
      .where(eq(bulkRuns.id, id))
      .returning();
    await tx.execute(sql`select pg_notify(${BULK_RUN_REQUESTED_CHANNEL}, ${id})`);
    logLater(tx, [
      {
        feedId,
        action: "bulk_run",
        via: "app",
        actor: { account: actor.moderatorAccountId, handle: null },
        note: started.note,
        details: {
          bulkRun: id,
          action: started.action,
          posts: started.total,
          search: started.query,
          network: started.platform,
        },
      },
    ]);
    return toBulkRun(started);
  });
}

/** A run, for a moderator of its feed (404 for an unknown run). */
async function runFor(db: Database, env: Env, user: User, runId: string): Promise<BulkRunRow> {
  const [row] = await db.select().from(bulkRuns).where(eq(bulkRuns.id, runId));
  if (!row) throw AppError.notFound(`Bulk decision "${runId}" not found.`);
  await assertModerator(db, env, row.feedId, user);
  return row;
}

export async function getBulkRun(db: Database, env: Env, user: User, runId: string): Promise<BulkRun> {
  return toBulkRun(await runFor(db, env, user, runId));
}

/** A feed's bulk runs, newest first (the curation tab finds a running one here when it is opened again). */
export async function listBulkRuns(
  db: Database,
  env: Env,
  user: User,
  query: BulkRunListQuery,
): Promise<Paged<BulkRun>> {
  const feedId = normaliseFeedId(query.feedId);
  await assertModerator(db, env, feedId, user);
  const rows = await db
    .select()
    .from(bulkRuns)
    .where(eq(bulkRuns.feedId, feedId))
    .orderBy(desc(bulkRuns.createdAt), desc(bulkRuns.id))
    .limit(query.limit + 1)
    .offset(query.page * query.limit);
  const [{ total }] = await db.select({ total: count() }).from(bulkRuns).where(eq(bulkRuns.feedId, feedId));
  return {
    items: rows.slice(0, query.limit).map(toBulkRun),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: rows.length > query.limit,
      totalCount: total,
    },
  };
}

/**
 * Decides a run's remaining posts, a chunk per transaction (the items' outcomes and the run's counters move in the
 * same transaction as the decisions, so a worker that stops or dies between chunks loses nothing and a resume
 * decides nothing twice). Stops between chunks when asked; answers whether it finished.
 */
export async function runBulkRun(
  db: Database,
  runId: string,
  {
    shouldStop = () => false,
    chunkPauseMs = DEFAULT_CHUNK_PAUSE_MS,
  }: { shouldStop?: () => boolean; chunkPauseMs?: number } = {},
): Promise<"finished" | "stopped"> {
  const [run] = await db
    .update(bulkRuns)
    .set({ state: "running", startedAt: sql`coalesce(${bulkRuns.startedAt}, now())`, updatedAt: sql`now()` })
    .where(and(eq(bulkRuns.id, runId), inArray(bulkRuns.state, ["queued", "running"])))
    .returning();
  if (!run) return "finished";
  const decision = {
    feedId: run.feedId,
    action: run.action,
    note: run.note,
    moderatorAccountId: run.requestedBy,
    moderatorAccountIdType: "near" as const,
    source: run.source,
    origin: { bulkRunId: run.id },
  };
  for (;;) {
    // Between chunks, a breath for everything else (requests, timers): an embedded database resolves its queries
    // without yielding to I/O, so a run going straight on would hold the API off until it ends.
    await new Promise((resolve) => setTimeout(resolve, chunkPauseMs));
    if (shouldStop()) return "stopped";
    const done = await withModerationLog(db, async (tx) => {
      const items = await tx
        .select({ position: bulkRunItems.position, submissionId: bulkRunItems.submissionId })
        .from(bulkRunItems)
        .where(and(eq(bulkRunItems.runId, runId), isNull(bulkRunItems.outcome)))
        .orderBy(asc(bulkRunItems.position))
        .limit(BULK_CHUNK)
        .for("update");
      if (items.length === 0) {
        // Only when nothing is left: rows another attempt decided while this one waited for their lock drop out
        // of a locking read, which can then come back short or empty with more still to decide.
        const [completed] = await tx
          .update(bulkRuns)
          .set({ state: "completed", finishedAt: sql`now()`, updatedAt: sql`now()` })
          .where(
            and(
              eq(bulkRuns.id, runId),
              eq(bulkRuns.state, "running"),
              sql`not exists (select 1 from ${bulkRunItems} where ${bulkRunItems.runId} = ${runId}
                and ${bulkRunItems.outcome} is null)`,
            ),
          )
          .returning({ id: bulkRuns.id });
        if (completed) return true;
        const [current] = await tx
          .select({ state: bulkRuns.state })
          .from(bulkRuns)
          .where(eq(bulkRuns.id, runId));
        return current?.state !== "running";
      }
      const chunk = await decideChunk(
        tx,
        decision,
        items.map((item) => item.submissionId),
      );
      const byOutcome = new Map<BulkDecisionOutcome, number[]>();
      for (const item of items) {
        const outcome = chunk.results.get(item.submissionId)?.outcome ?? "not_found";
        byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), item.position]);
      }
      for (const [outcome, positions] of byOutcome) {
        await tx
          .update(bulkRunItems)
          .set({ outcome })
          .where(and(eq(bulkRunItems.runId, runId), inArray(bulkRunItems.position, positions)));
      }
      const tally = (outcome: BulkDecisionOutcome) => byOutcome.get(outcome)?.length ?? 0;
      const first = chunk.firstUndoUntil ? new Date(chunk.firstUndoUntil) : null;
      const last = chunk.lastUndoUntil ? new Date(chunk.lastUndoUntil) : null;
      await tx
        .update(bulkRuns)
        .set({
          // In a quorum feed the run's part is a vote: counted as its work, a repeated vote as already decided.
          decided: sql`${bulkRuns.decided} + ${tally("decided") + tally("voted")}`,
          alreadyDecided: sql`${bulkRuns.alreadyDecided} + ${tally("already_approved") + tally("already_rejected") + tally("already_voted")}`,
          failed: sql`${bulkRuns.failed} + ${tally("not_found")}`,
          firstUndoUntil: first
            ? sql`least(coalesce(${bulkRuns.firstUndoUntil}, ${first}), ${first})`
            : bulkRuns.firstUndoUntil,
          lastUndoUntil: last
            ? sql`greatest(coalesce(${bulkRuns.lastUndoUntil}, ${last}), ${last})`
            : bulkRuns.lastUndoUntil,
          updatedAt: sql`now()`,
        })
        .where(eq(bulkRuns.id, runId));
      return false;
    });
    if (done) return "finished";
  }
}

/** A run the worker gave up on (its attempts spent): what it decided stays decided, the rest stays pending. */
export async function failBulkRun(db: Database, runId: string, message: string) {
  await db
    .update(bulkRuns)
    .set({ state: "failed", error: message.slice(0, 1000), finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(bulkRuns.id, runId), inArray(bulkRuns.state, ["queued", "running"])));
}

/**
 * Takes back every approval of a run, offered only when the whole run finished inside the feed's undo window (so
 * none of its approvals was handed on yet); otherwise a 409 that says why. Chunked like the run itself.
 */
export async function undoBulkRun(
  db: Database,
  env: Env,
  user: User,
  runId: string,
): Promise<BulkRunUndoAnswer> {
  const row = await runFor(db, env, user, runId);
  if (row.action !== "approve") throw AppError.conflict("Only approvals can be undone.");
  if (row.state !== "completed") {
    throw AppError.conflict(
      row.state === "failed"
        ? "This bulk decision stopped with an error: its approvals cannot be undone together."
        : "This bulk decision is still running: undo is offered once it has finished.",
    );
  }
  const run = toBulkRun(row);
  if (run.undoUntil === null || Date.parse(run.undoUntil) <= Date.now()) {
    throw AppError.conflict(
      row.firstUndoUntil === null
        ? "This feed publishes approvals at once: there is no undo window."
        : row.undone > 0
          ? "This bulk decision was already undone."
          : run.undoMissed
            ? "Undo is not offered: this bulk decision took longer than the feed's undo window, so its first approvals are already being published."
            : "Too late to undo: the undo window has closed and these approvals are being published.",
    );
  }
  let undone = 0;
  let notUndone = 0;
  let after = 0;
  for (;;) {
    const moved = await withModerationLog(db, async (tx) => {
      const items = await tx
        .select({ position: bulkRunItems.position, submissionId: bulkRunItems.submissionId })
        .from(bulkRunItems)
        .where(
          and(
            eq(bulkRunItems.runId, runId),
            eq(bulkRunItems.outcome, "decided"),
            gt(bulkRunItems.position, after),
          ),
        )
        .orderBy(asc(bulkRunItems.position))
        .limit(BULK_CHUNK)
        .for("update");
      if (items.length === 0) return 0;
      after = items[items.length - 1].position;
      const results = await undoChunk(
        tx,
        row.feedId,
        items.map((item) => item.submissionId),
        user.nearAccountId,
        runId,
      );
      const undoneIds = new Set(results.filter((r) => r.outcome === "undone").map((r) => r.submissionId));
      const positions = items.filter((item) => undoneIds.has(item.submissionId)).map((item) => item.position);
      if (positions.length) {
        await tx
          .update(bulkRunItems)
          .set({ outcome: "undone" })
          .where(and(eq(bulkRunItems.runId, runId), inArray(bulkRunItems.position, positions)));
        await tx
          .update(bulkRuns)
          .set({ undone: sql`${bulkRuns.undone} + ${positions.length}`, updatedAt: sql`now()` })
          .where(eq(bulkRuns.id, runId));
      }
      undone += positions.length;
      notUndone += items.length - positions.length;
      return items.length;
    });
    if (moved === 0) break;
  }
  return { run: await getBulkRun(db, env, user, runId), undone, notUndone };
}
