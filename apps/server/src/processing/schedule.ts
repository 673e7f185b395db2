import { randomUUID } from "node:crypto";
import {
  branchKeys,
  type ChannelSchedule,
  describeChannelSchedule,
  type FeedConfig,
  findBuiltinPlugin,
  planSendTimes,
  SCHEDULE_LIMITS,
  type ScheduledChannel,
  type ScheduledSendPage,
  type ScheduledSendsQuery,
  sameSchedule,
  scheduleOf,
} from "@curate/core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { feeds, processingJobs, scheduledSends } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";

/**
 * A publishing schedule per channel (decision 0036). A distribution step of a scheduled channel takes a place in its
 * channel's line (a `scheduled_sends` row) and its job goes back into the outbox until the planned time, the same
 * way an approval waits out its undo window. When due, taking the slot is one conditional update of the row, and
 * the slot itself is unique per channel: however many workers run, each slot is published once.
 */

type SendRow = typeof scheduledSends.$inferSelect;

/** Epoch milliseconds now, by the worker's clock (tests move it). */
export type ScheduleClock = () => number;

/** The feed's stream distributors' schedules by branch key (absent: publishes at once). */
export function channelSchedules(
  config: FeedConfig | null | undefined,
): Map<string, { schedule: ChannelSchedule | null; plugin: string }> {
  const distribute = config?.outputs?.stream?.distribute ?? [];
  const keys = branchKeys(distribute);
  return new Map(
    distribute.map((entry, index) => [
      keys[index],
      {
        schedule: config?.outputs?.stream?.enabled === false ? null : scheduleOf(entry),
        plugin: entry.plugin,
      },
    ]),
  );
}

/** One channel's line at a time, on every worker and API process (the planning reads the line, then writes it). */
async function lockLine(tx: Database, feedId: string, channelKey: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`schedule|${feedId}|${channelKey}`}))`);
}

/** The waiting items of a line that follow the plan (not sent by "publish now"), in order. */
async function lineOf(tx: Database, feedId: string, channelKey: string) {
  return tx
    .select({ id: scheduledSends.id, jobId: scheduledSends.jobId, plannedAt: scheduledSends.plannedAt })
    .from(scheduledSends)
    .where(
      and(
        eq(scheduledSends.feedId, feedId),
        eq(scheduledSends.channelKey, channelKey),
        eq(scheduledSends.status, "waiting"),
        eq(scheduledSends.publishNow, false),
      ),
    )
    .orderBy(asc(scheduledSends.position))
    .limit(SCHEDULE_LIMITS.replanBatch);
}

/** Writes new planned times (only those that changed) and moves each affected parked job's wake-up with them. */
async function writeTimes(
  tx: Database,
  line: Array<{ id: string; jobId: string; plannedAt: Date }>,
  times: number[],
  clock: ScheduleClock,
): Promise<number> {
  const changed = line.flatMap((row, index) =>
    times[index] !== undefined && row.plannedAt.getTime() !== times[index]
      ? [{ id: row.id, jobId: row.jobId, at: new Date(times[index]).toISOString() }]
      : [],
  );
  if (changed.length === 0) return 0;
  await tx.execute(sql`update scheduled_sends s set planned_at = v.at::timestamptz, updated_at = now()
    from (values ${sql.join(
      changed.map((row) => sql`(${row.id}, ${row.at})`),
      sql`, `,
    )}) as v(id, at) where s.id = v.id`);
  await wakeJobs(tx, [...new Set(changed.map((row) => row.jobId))], clock);
  return changed.length;
}

/**
 * A parked job wakes at its earliest waiting send: the outbox keeps it until then. The planned times are on the
 * schedule's clock; the outbox reads the database's, so the wait is carried over as a duration.
 */
async function wakeJobs(tx: Database, jobIds: string[], clock: ScheduleClock) {
  if (jobIds.length === 0) return;
  await tx.execute(sql`update processing_jobs pj
    set not_before = now() + greatest(0, extract(epoch from (
        (select min(case when s.publish_now then to_timestamp(0) else s.planned_at end) from scheduled_sends s
          where s.job_id = pj.id and s.status = 'waiting')
        - to_timestamp(${clock() / 1000}))) * 1000) * interval '1 millisecond',
      updated_at = now()
    where pj.id in (${sql.join(
      jobIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and pj.status = 'pending' and pj.queued_at is null and pj.parkings > 0
      and exists (select 1 from scheduled_sends s where s.job_id = pj.id and s.status = 'waiting')`);
}

/** The slot a line last took (its sends so far), so the next one keeps the schedule's spacing. */
async function lastTaken(tx: Database, feedId: string, channelKey: string): Promise<number | null> {
  const [row] = await queryRows<{ at: string | null }>(
    tx,
    sql`select ${isoUtc("max(slot_at)")} as at from scheduled_sends
      where feed_id = ${feedId} and channel_key = ${channelKey} and slot_at is not null and not publish_now`,
  );
  return row?.at ? Date.parse(row.at) : null;
}

/** Plans a whole line again from now under `schedule`; answers how many items got a new time. */
async function replanLine(
  tx: Database,
  feedId: string,
  channelKey: string,
  schedule: ChannelSchedule | null,
  clock: ScheduleClock,
): Promise<number> {
  const line = await lineOf(tx, feedId, channelKey);
  if (line.length === 0) return 0;
  if (!schedule) {
    // No longer scheduled: everything waiting goes at once, in its order.
    await tx
      .update(scheduledSends)
      .set({ publishNow: true, updatedAt: sql`now()` })
      .where(
        inArray(
          scheduledSends.id,
          line.map((row) => row.id),
        ),
      );
    await wakeJobs(tx, [...new Set(line.map((row) => row.jobId))], clock);
    return line.length;
  }
  const times = planSendTimes(schedule, {
    from: clock(),
    count: line.length,
    lastTakenAt: await lastTaken(tx, feedId, channelKey),
  });
  return writeTimes(tx, line, times, clock);
}

/**
 * Keeps a line's times when its order or length changes (a move, a removal): the times it had, earliest first, go
 * to its items in their new order. No clock is needed, and nobody's time moves later than it was.
 */
async function settleLine(
  tx: Database,
  feedId: string,
  channelKey: string,
  pool: number[],
  clock: ScheduleClock,
) {
  const line = await lineOf(tx, feedId, channelKey);
  const times = [...pool].sort((a, b) => a - b).slice(0, line.length);
  return writeTimes(tx, line, times, clock);
}

export type ScheduledTurn =
  | { kind: "send" }
  | { kind: "wait"; until: number }
  | { kind: "removed"; note: string };

/**
 * A distribution step's turn on a scheduled channel. The first time, it joins the end of the channel's line; when
 * its planned time has come, it takes the slot (once, whatever the number of workers) and may send. Answers
 * `send` at once for a channel that publishes at once.
 */
export async function scheduledTurn(
  db: Database,
  clock: ScheduleClock,
  job: { id: string; feedId: string; submissionId: string | null },
  step: { id: string; branchKey: string | null; pluginName: string },
): Promise<ScheduledTurn> {
  let [row] = await db.select().from(scheduledSends).where(eq(scheduledSends.stepId, step.id));
  if (!row) {
    // Recaps (no submission) publish when their own schedule says.
    if (!step.branchKey || !job.submissionId) return { kind: "send" };
    const [feed] = await db.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, job.feedId));
    const channel = channelSchedules(feed?.config as FeedConfig).get(step.branchKey);
    if (!channel?.schedule) return { kind: "send" };
    row = await joinLine(db, clock, job, { ...step, branchKey: step.branchKey }, channel.schedule);
  }
  if (row.status === "cancelled") return { kind: "removed", note: row.note ?? "Removed from the schedule." };
  if (row.status !== "waiting") return { kind: "send" };
  if (!row.publishNow && row.plannedAt.getTime() > clock())
    return { kind: "wait", until: row.plannedAt.getTime() };
  return takeSlot(db, clock, row);
}

async function joinLine(
  db: Database,
  clock: ScheduleClock,
  job: { id: string; feedId: string; submissionId: string | null },
  step: { id: string; branchKey: string; pluginName: string },
  schedule: ChannelSchedule,
): Promise<SendRow> {
  return db.transaction(async (tx) => {
    await lockLine(tx, job.feedId, step.branchKey);
    const [tail] = await queryRows<{ position: string | null; plannedAt: string | null }>(
      tx,
      sql`select max(position)::text as position,
          ${isoUtc("max(planned_at) filter (where not publish_now)")} as "plannedAt"
        from scheduled_sends
        where feed_id = ${job.feedId} and channel_key = ${step.branchKey} and status = 'waiting'`,
    );
    // The next free slot: after the last one taken and after every item already in line.
    const taken = await lastTaken(tx, job.feedId, step.branchKey);
    const lineEnd = tail?.plannedAt ? Date.parse(tail.plannedAt) : null;
    const [at] = planSendTimes(schedule, {
      from: clock(),
      count: 1,
      lastTakenAt:
        taken === null && lineEnd === null ? null : Math.max(taken ?? -Infinity, lineEnd ?? -Infinity),
    });
    const [row] = await tx
      .insert(scheduledSends)
      .values({
        id: randomUUID(),
        feedId: job.feedId,
        channelKey: step.branchKey,
        pluginName: step.pluginName,
        submissionId: job.submissionId,
        jobId: job.id,
        stepId: step.id,
        position: Number(tail?.position ?? 0) + 1,
        plannedAt: new Date(at ?? clock()),
      })
      .returning();
    return row;
  });
}

const isUniqueViolation = (error: unknown) => {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
};

/**
 * Takes a due item's slot: one conditional update, so of two workers holding the same item one gets it; and the
 * slot is unique per channel, so two items planned for one slot (a race in planning) cannot both take it — the
 * other is planned again for the next free one.
 */
async function takeSlot(db: Database, clock: ScheduleClock, row: SendRow): Promise<ScheduledTurn> {
  try {
    const taken = await db
      .update(scheduledSends)
      .set({
        status: "sending",
        // "Publish now" takes the moment it goes, outside the schedule's slots.
        slotAt: row.publishNow ? sql`clock_timestamp()` : row.plannedAt,
        updatedAt: sql`now()`,
      })
      .where(and(eq(scheduledSends.id, row.id), eq(scheduledSends.status, "waiting")))
      .returning({ id: scheduledSends.id });
    if (taken.length > 0) return { kind: "send" };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const [current] = await db.select().from(scheduledSends).where(eq(scheduledSends.id, row.id));
  if (current?.status !== "waiting") return { kind: "send" };
  await db.transaction(async (tx) => {
    await lockLine(tx, row.feedId, row.channelKey);
    const [feed] = await tx.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, row.feedId));
    const channel = channelSchedules(feed?.config as FeedConfig).get(row.channelKey);
    await replanLine(tx, row.feedId, row.channelKey, channel?.schedule ?? null, clock);
  });
  const [replanned] = await db.select().from(scheduledSends).where(eq(scheduledSends.id, row.id));
  return { kind: "wait", until: Math.max(clock() + 1000, replanned?.plannedAt.getTime() ?? 0) };
}

/** Marks a taken slot sent, in the transaction that records the step's success. */
export async function markScheduledSent(tx: Database, stepId: string) {
  await tx
    .update(scheduledSends)
    .set({ status: "sent", updatedAt: sql`now()` })
    .where(and(eq(scheduledSends.stepId, stepId), eq(scheduledSends.status, "sending")));
}

/**
 * Takes the waiting items of jobs that were cancelled (an undo, a retraction) out of their lines; the items behind
 * them move up into the freed times.
 */
export async function cancelScheduledSends(tx: Database, jobIds: string[], note: string) {
  if (jobIds.length === 0) return;
  const cancelled = await tx
    .update(scheduledSends)
    .set({ status: "cancelled", note, updatedAt: sql`now()` })
    .where(and(inArray(scheduledSends.jobId, jobIds), eq(scheduledSends.status, "waiting")))
    .returning();
  const lines = new Map<string, SendRow[]>();
  for (const row of cancelled) {
    const key = `${row.feedId}\u0000${row.channelKey}`;
    lines.set(key, [...(lines.get(key) ?? []), row]);
  }
  for (const rows of lines.values()) {
    const { feedId, channelKey } = rows[0];
    await lockLine(tx, feedId, channelKey);
    const line = await lineOf(tx, feedId, channelKey);
    const pool = [
      ...line.map((row) => row.plannedAt.getTime()),
      ...rows.filter((row) => !row.publishNow).map((row) => row.plannedAt.getTime()),
    ];
    // Undo and retraction run on the API's clock: moving items only earlier needs none.
    await settleLine(tx, feedId, channelKey, pool, () => Date.now());
  }
}

/**
 * A saved config's schedule changes: each channel whose schedule changed is planned again from now (a channel made
 * immediate sends what waits at once). Answers how many waiting items got a new time.
 */
export async function replanChangedSchedules(
  tx: Database,
  feedId: string,
  before: FeedConfig | null,
  after: FeedConfig,
  clock: ScheduleClock = Date.now,
): Promise<number> {
  const previous = channelSchedules(before);
  const next = channelSchedules(after);
  const waitingLines = await queryRows<{ channelKey: string }>(
    tx,
    sql`select distinct channel_key as "channelKey" from scheduled_sends
      where feed_id = ${feedId} and status = 'waiting' and not publish_now`,
  );
  let replanned = 0;
  for (const { channelKey } of waitingLines) {
    const schedule = next.get(channelKey)?.schedule ?? null;
    if (sameSchedule(previous.get(channelKey)?.schedule ?? null, schedule)) continue;
    await lockLine(tx, feedId, channelKey);
    replanned += await replanLine(tx, feedId, channelKey, schedule, clock);
  }
  return replanned;
}

/** Parked jobs whose sends are due by `now` (the worker's clock) leave the outbox at once. */
export async function wakeDueSends(db: Database, now: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update processing_jobs pj set not_before = now(), updated_at = now()
      where pj.status = 'pending' and pj.queued_at is null and pj.parkings > 0
        and pj.not_before > now()
        and pj.id in (select s.job_id from scheduled_sends s where s.status = 'waiting'
          and (s.publish_now or s.planned_at <= to_timestamp(${now / 1000})))
      returning pj.id`,
  );
  return rows.length;
}

// --- The Scheduled view ---

const labelOf = (plugin: string) => findBuiltinPlugin(plugin)?.label ?? plugin;

/** The feed's scheduled channels (and any that still hold waiting items), with how many items wait on each. */
export async function listScheduledChannels(db: Database, feedId: string): Promise<ScheduledChannel[]> {
  const [feed] = await db.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, feedId));
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
  const channels = channelSchedules(feed.config as FeedConfig);
  const counts = await queryRows<{ channelKey: string; pluginName: string; waiting: number }>(
    db,
    sql`select channel_key as "channelKey", min(plugin_name) as "pluginName", count(*)::int as waiting
      from scheduled_sends where feed_id = ${feedId} and status = 'waiting' group by channel_key`,
  );
  const byKey = new Map(counts.map((row) => [row.channelKey, row]));
  const keys = [
    ...[...channels.entries()].filter(([, channel]) => channel.schedule).map(([key]) => key),
    ...counts.map((row) => row.channelKey).filter((key) => !channels.get(key)?.schedule),
  ];
  return keys.map((channelKey) => {
    const channel = channels.get(channelKey);
    const plugin = channel?.plugin ?? byKey.get(channelKey)?.pluginName ?? channelKey;
    return {
      channelKey,
      pluginName: plugin,
      label: labelOf(plugin),
      schedule: describeChannelSchedule(channel?.schedule),
      waiting: byKey.get(channelKey)?.waiting ?? 0,
    };
  });
}

/** One channel's line, a page at a time, in order. */
export async function listScheduledSends(
  db: Database,
  feedId: string,
  query: ScheduledSendsQuery,
): Promise<ScheduledSendPage> {
  const where = sql`s.feed_id = ${feedId} and s.channel_key = ${query.channelKey} and s.status = 'waiting'`;
  const [total] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from scheduled_sends s where ${where}`,
  );
  const rows = await queryRows<{
    id: string;
    channelKey: string;
    submissionId: string | null;
    jobId: string;
    content: string | null;
    username: string | null;
    plannedAt: string;
    publishNow: boolean;
  }>(
    db,
    sql`select s.id, s.channel_key as "channelKey", s.submission_id as "submissionId", s.job_id as "jobId",
        left(sub.content, 280) as content, sub.username, ${isoUtc("s.planned_at")} as "plannedAt",
        s.publish_now as "publishNow"
      from scheduled_sends s left join submissions sub on sub.tweet_id = s.submission_id
      where ${where}
      order by s.publish_now desc, s.position
      limit ${query.limit} offset ${query.page * query.limit}`,
  );
  const count = total?.count ?? 0;
  return {
    items: rows.map((row, index) => ({
      id: row.id,
      channelKey: row.channelKey,
      position: query.page * query.limit + index + 1,
      submissionId: row.submissionId ?? "",
      jobId: row.jobId,
      content: row.content ?? "",
      username: row.username ?? "",
      plannedAt: row.plannedAt,
      publishNow: row.publishNow,
    })),
    pagination: {
      page: query.page,
      limit: query.limit,
      hasNextPage: (query.page + 1) * query.limit < count,
      totalCount: count,
    },
  };
}

async function waitingSend(tx: Database, feedId: string, sendId: string): Promise<SendRow> {
  const [row] = await tx
    .select()
    .from(scheduledSends)
    .where(and(eq(scheduledSends.id, sendId), eq(scheduledSends.feedId, feedId)));
  if (!row) throw AppError.notFound("This scheduled item does not exist.");
  if (row.status !== "waiting") {
    throw AppError.conflict("This item is no longer waiting: it has been published or removed.");
  }
  return row;
}

/** Moves a waiting item to a new place in its line (1-based); the line keeps its times, in the new order. */
export async function moveScheduledSend(db: Database, feedId: string, sendId: string, position: number) {
  return db.transaction(async (tx) => {
    const first = await waitingSend(tx, feedId, sendId);
    await lockLine(tx, feedId, first.channelKey);
    const row = await waitingSend(tx, feedId, sendId);
    if (row.publishNow) throw AppError.conflict("This item is already on its way.");
    const line = await lineOf(tx, feedId, row.channelKey);
    const order = line.filter((item) => item.id !== row.id);
    order.splice(Math.min(position, order.length + 1) - 1, 0, {
      id: row.id,
      jobId: row.jobId,
      plannedAt: row.plannedAt,
    });
    // Positions are renumbered in one statement; times follow the new order.
    await tx.execute(sql`update scheduled_sends s set position = v.position::bigint, updated_at = now()
      from (values ${sql.join(
        order.map((item, index) => sql`(${item.id}, ${index + 1})`),
        sql`, `,
      )}) as v(id, position) where s.id = v.id`);
    const replanned = await settleLine(
      tx,
      feedId,
      row.channelKey,
      line.map((item) => item.plannedAt.getTime()),
      () => Date.now(),
    );
    return { replanned };
  });
}

/** Sends a waiting item at once: it leaves the line (whose items move up) and its job leaves the outbox now. */
export async function publishScheduledSendNow(db: Database, feedId: string, sendId: string) {
  return db.transaction(async (tx) => {
    const first = await waitingSend(tx, feedId, sendId);
    await lockLine(tx, feedId, first.channelKey);
    const row = await waitingSend(tx, feedId, sendId);
    if (row.publishNow) return { replanned: 0 };
    const pool = (await lineOf(tx, feedId, row.channelKey)).map((item) => item.plannedAt.getTime());
    await tx
      .update(scheduledSends)
      .set({ publishNow: true, updatedAt: sql`now()` })
      .where(eq(scheduledSends.id, row.id));
    const replanned = await settleLine(tx, feedId, row.channelKey, pool, () => Date.now());
    await tx
      .update(processingJobs)
      .set({ notBefore: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(processingJobs.id, row.jobId), eq(processingJobs.status, "pending")));
    return { replanned };
  });
}

/** Takes a waiting item off the schedule: it is not published on this channel; the items behind it move up. */
export async function removeScheduledSend(db: Database, feedId: string, sendId: string, removedBy: string) {
  return db.transaction(async (tx) => {
    const first = await waitingSend(tx, feedId, sendId);
    await lockLine(tx, feedId, first.channelKey);
    const row = await waitingSend(tx, feedId, sendId);
    const pool = (await lineOf(tx, feedId, row.channelKey)).map((item) => item.plannedAt.getTime());
    await tx
      .update(scheduledSends)
      .set({
        status: "cancelled",
        note: `Removed from the schedule by ${removedBy}: not published on this channel.`,
        updatedAt: sql`now()`,
      })
      .where(eq(scheduledSends.id, row.id));
    const replanned = await settleLine(tx, feedId, row.channelKey, pool, () => Date.now());
    // Its job wakes now to record the removal (and ends, unless another of its channels still waits).
    await tx
      .update(processingJobs)
      .set({ notBefore: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(processingJobs.id, row.jobId), eq(processingJobs.status, "pending")));
    return { replanned };
  });
}
