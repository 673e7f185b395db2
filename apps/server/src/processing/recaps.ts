import { randomUUID } from "node:crypto";
import {
  DEFAULT_RECAP_TIMEZONE,
  describeSchedule,
  type FeedConfig,
  latestRecapRun,
  nextRecapRuns,
  type Paged,
  RECAP_LIMITS,
  type RecapConfig,
  type RecapStatus,
  recapList,
} from "@curate/core";
import { and, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import { feeds, processingJobs, recapStates, type User } from "../db/schema.ts";
import { queryRows } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { type SubmissionInput, submissionInput } from "./input.ts";
import { type Plan, planStep } from "./plan.ts";

type JobRow = typeof processingJobs.$inferSelect;

/**
 * Recaps (decision 0013): scheduled digests of a feed's approvals. A worker's tick finds every recap whose
 * scheduled time has come and writes one recap job per slot — the slot recorded in `recap_states` under a row lock
 * and the job's idempotency key naming the slot, so several workers make one job. The job covers the approvals
 * since the recap's previous run ([coveredUntil, slot)) and runs on the processing engine like any other job.
 */

const timezoneOf = (recap: RecapConfig) => recap.timezone || DEFAULT_RECAP_TIMEZONE;
const nameOf = (recap: RecapConfig) => recap.name?.trim() || recap.id || "Recap";

/** The feed's recaps with an id and a schedule (the contract guarantees both for configs saved through the API). */
function recapsOf(config: unknown): Array<RecapConfig & { id: string; schedule: string }> {
  const outputs = (config as FeedConfig | null)?.outputs;
  return recapList(outputs?.recap).filter(
    (recap): recap is RecapConfig & { id: string; schedule: string } =>
      typeof recap.id === "string" && typeof recap.schedule === "string",
  );
}

async function lockState(tx: Database, feedId: string, recapId: string) {
  const [state] = await tx
    .select()
    .from(recapStates)
    .where(and(eq(recapStates.feedId, feedId), eq(recapStates.recapId, recapId)))
    .for("update");
  return state ?? null;
}

async function insertRecapJob(
  tx: Database,
  values: {
    feedId: string;
    recapId: string;
    periodStart: Date;
    periodEnd: Date;
    key: string;
    requestedBy?: string | null;
  },
): Promise<JobRow | null> {
  const [job] = await tx
    .insert(processingJobs)
    .values({
      id: randomUUID(),
      kind: "recap",
      feedId: values.feedId,
      recapId: values.recapId,
      periodStart: values.periodStart,
      periodEnd: values.periodEnd,
      status: "pending",
      idempotencyKey: values.key,
      publicationKey: values.key,
      requestedBy: values.requestedBy ?? null,
    })
    .onConflictDoNothing({ target: processingJobs.idempotencyKey })
    .returning();
  return job ?? null;
}

/**
 * One look at every feed's recaps at `now`: a recap seen for the first time starts its cursor at its latest
 * scheduled time (its first run, at the next one, covers a whole period); a recap whose scheduled time has come
 * since its last run gets one job covering the approvals since then. Missed slots (no worker running) make one run
 * over everything since the last. Safe to call from any number of workers at once.
 */
export async function scheduleDueRecaps(db: Database, now: Date, logger?: Logger): Promise<number> {
  const rows = await db
    .select({ id: feeds.id, config: feeds.config })
    .from(feeds)
    // A quarantined feed's recaps wait (feeds/quarantine.ts): once it is fixed, the next look covers the missed slots.
    .where(sql`${feeds.config} -> 'outputs' -> 'recap' is not null and ${feeds.secretFindings} is null`);
  let created = 0;
  for (const feed of rows) {
    if ((feed.config as FeedConfig).enabled === false) continue;
    for (const recap of recapsOf(feed.config)) {
      if (recap.enabled === false) continue;
      const slot = latestRecapRun(recap.schedule, timezoneOf(recap), now);
      if (!slot) continue;
      try {
        const job = await db.transaction(async (tx) => {
          const state = await lockState(tx, feed.id, recap.id);
          if (!state) {
            await tx
              .insert(recapStates)
              .values({ feedId: feed.id, recapId: recap.id, lastSlotAt: slot, coveredUntil: slot })
              .onConflictDoNothing();
            return null;
          }
          if (state.lastSlotAt.getTime() >= slot.getTime()) return null;
          // A "Run now" after this slot already covered it: the slot passes without a run.
          const made =
            state.coveredUntil.getTime() < slot.getTime()
              ? await insertRecapJob(tx, {
                  feedId: feed.id,
                  recapId: recap.id,
                  periodStart: state.coveredUntil,
                  periodEnd: slot,
                  key: `recap:${feed.id}:${recap.id}:${slot.toISOString()}`,
                })
              : null;
          await tx
            .update(recapStates)
            .set({
              lastSlotAt: slot,
              coveredUntil: sql`greatest(${recapStates.coveredUntil}, ${slot.toISOString()}::timestamptz)`,
              ...(made ? { lastRunAt: now } : {}),
              updatedAt: sql`now()`,
            })
            .where(and(eq(recapStates.feedId, feed.id), eq(recapStates.recapId, recap.id)));
          return made;
        });
        if (job) {
          created++;
          logger?.info({ feedId: feed.id, recapId: recap.id, jobId: job.id }, "recap run scheduled");
        }
      } catch (error) {
        logger?.warn({ err: error, feedId: feed.id, recapId: recap.id }, "could not schedule a recap");
      }
    }
  }
  return created;
}

async function feedRecaps(db: Database, feedId: string) {
  const [feed] = await db.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, feedId));
  if (!feed) throw AppError.notFound(`Feed "${feedId}" not found.`);
  return recapsOf(feed.config);
}

/** Run now: a recap job covering the approvals since the recap's last run up to now (the caller checks rights). */
export async function createRecapRun(
  db: Database,
  feedId: string,
  recapId: string,
  user: User,
  now = new Date(),
): Promise<JobRow> {
  const recap = (await feedRecaps(db, feedId)).find((item) => item.id === recapId);
  if (!recap) throw AppError.notFound(`This feed has no recap "${recapId}".`);
  const job = await db.transaction(async (tx) => {
    const state = await lockState(tx, feedId, recap.id);
    const [running] = await tx
      .select({ id: processingJobs.id })
      .from(processingJobs)
      .where(
        and(
          eq(processingJobs.feedId, feedId),
          eq(processingJobs.recapId, recap.id),
          inArray(processingJobs.status, ["pending", "processing"]),
        ),
      )
      .limit(1);
    if (running) {
      throw AppError.conflict(
        "A run of this recap is still waiting or running; try again when it has finished.",
      );
    }
    const latest = latestRecapRun(recap.schedule, timezoneOf(recap), now);
    const start = state?.coveredUntil ?? latest ?? now;
    const made = await insertRecapJob(tx, {
      feedId,
      recapId: recap.id,
      periodStart: start.getTime() < now.getTime() ? start : now,
      periodEnd: now,
      key: `recap:${feedId}:${recap.id}:now:${randomUUID()}`,
      requestedBy: user.nearAccountId,
    });
    if (state) {
      await tx
        .update(recapStates)
        .set({ coveredUntil: now, lastRunAt: now, updatedAt: sql`now()` })
        .where(and(eq(recapStates.feedId, feedId), eq(recapStates.recapId, recap.id)));
    } else {
      await tx.insert(recapStates).values({
        feedId,
        recapId: recap.id,
        lastSlotAt: latest ?? now,
        coveredUntil: now,
        lastRunAt: now,
      });
    }
    return made;
  });
  if (!job) throw AppError.conflict("This recap run was already requested.");
  return job;
}

/** The feed's recaps with their schedule in words, next run and cursor (moderators of the feed). */
export async function listRecapStatuses(
  db: Database,
  feedId: string,
  now = new Date(),
): Promise<RecapStatus[]> {
  const recaps = await feedRecaps(db, feedId);
  const states = await db.select().from(recapStates).where(eq(recapStates.feedId, feedId));
  return recaps.map((recap) => {
    const state = states.find((row) => row.recapId === recap.id);
    const enabled = recap.enabled !== false;
    const [next] = enabled ? nextRecapRuns(recap.schedule, timezoneOf(recap), 1, now) : [];
    return {
      id: recap.id,
      name: nameOf(recap),
      enabled,
      schedule: recap.schedule,
      timezone: timezoneOf(recap),
      description: describeSchedule(recap.schedule),
      nextRunAt: next ? next.toISOString() : null,
      coveredUntil: state ? state.coveredUntil.toISOString() : null,
      lastRunAt: state?.lastRunAt ? state.lastRunAt.toISOString() : null,
    };
  });
}

/** The feed's recap runs (scheduled, run now, and their retries), newest first, paged. */
export async function listRecapRuns(
  db: Database,
  feedId: string,
  query: { page: number; limit: number; recapId?: string },
): Promise<Paged<JobRow>> {
  const { page, limit } = query;
  const where = and(
    eq(processingJobs.feedId, feedId),
    isNotNull(processingJobs.recapId),
    query.recapId ? eq(processingJobs.recapId, query.recapId) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(processingJobs).where(where);
  const rows = await db
    .select()
    .from(processingJobs)
    .where(where)
    .orderBy(desc(processingJobs.createdAt), desc(processingJobs.id))
    .limit(limit + 1)
    .offset(page * limit);
  return {
    items: rows.slice(0, limit),
    pagination: { page, limit, hasNextPage: rows.length > limit, totalCount: Number(total) },
  };
}

/** What a recap's steps work on: the period's approved items and where they come from. */
export interface RecapDigest {
  feedId: string;
  recapId: string;
  recapName: string;
  periodStart: string;
  periodEnd: string;
  /** Items in `items`. */
  count: number;
  /** Approvals of the period left out because a run takes at most RECAP_LIMITS.itemsPerRun. */
  omitted: number;
  items: unknown[];
}

/**
 * The plan of a recap job when it first runs: the feed's latest config of that recap and the items approved in
 * the job's period (the earliest first). Its per-item transforms run on each item, then its batch transforms on
 * the digest, then one branch per distributor. Null with a note when there is nothing to run.
 */
export async function recapPlan(
  db: Database,
  job: JobRow,
): Promise<{ plan: Plan | null; note: string | null }> {
  const [feed] = await db.select({ config: feeds.config }).from(feeds).where(eq(feeds.id, job.feedId));
  if (!feed) return { plan: null, note: "The feed no longer exists." };
  const recap = recapsOf(feed.config).find((item) => item.id === job.recapId);
  if (!recap)
    return { plan: null, note: `The feed has no recap "${job.recapId}" any more: nothing was posted.` };
  if (!recap.distribute?.length) {
    return { plan: null, note: "This recap has no distributors: nothing to publish." };
  }
  if (!job.periodStart || !job.periodEnd) return { plan: null, note: "This recap run has no period." };
  const period = `${job.periodStart.toISOString()} – ${job.periodEnd.toISOString()}`;
  // The period's approvals: links still approved whose latest approval falls in [start, end), earliest first.
  const inPeriod = sql`from moderation_history mh
      join submission_feeds sf on sf.submission_id = mh.submission_id and sf.feed_id = mh.feed_id
      where mh.feed_id = ${job.feedId} and mh.action = 'approve' and sf.status = 'approved'
        and mh.created_at >= ${job.periodStart.toISOString()}::timestamptz
        and mh.created_at < ${job.periodEnd.toISOString()}::timestamptz
        and not exists (select 1 from moderation_history later where later.submission_id = mh.submission_id
          and later.feed_id = mh.feed_id and later.action = 'approve'
          and (later.created_at, later.id) > (mh.created_at, mh.id))`;
  const approvals = await queryRows<{ submissionId: string }>(
    db,
    sql`select mh.submission_id as "submissionId" ${inPeriod}
      order by mh.created_at asc, mh.id asc limit ${RECAP_LIMITS.itemsPerRun + 1}`,
  );
  if (approvals.length === 0) {
    return { plan: null, note: `No items were approved in this period (${period}): nothing was posted.` };
  }
  let total = approvals.length;
  if (total > RECAP_LIMITS.itemsPerRun) {
    const [row] = await queryRows<{ total: number }>(db, sql`select count(*)::int as total ${inPeriod}`);
    total = Number(row?.total ?? total);
  }
  const items: SubmissionInput[] = [];
  for (const { submissionId } of approvals.slice(0, RECAP_LIMITS.itemsPerRun)) {
    const input = await submissionInput(db, submissionId, job.feedId);
    if (input) items.push(input);
  }
  const digest: RecapDigest = {
    feedId: job.feedId,
    recapId: recap.id,
    recapName: nameOf(recap),
    periodStart: job.periodStart.toISOString(),
    periodEnd: job.periodEnd.toISOString(),
    count: items.length,
    omitted: Math.max(0, total - items.length),
    items,
  };
  const integrations = (feed.config as FeedConfig).integrations;
  const step = (entry: { plugin: string; config?: Record<string, unknown> }) => planStep(entry, integrations);
  const itemTransforms = (recap.transform ?? []).map(step);
  return {
    plan: {
      transforms: [...itemTransforms, ...(recap.batchTransform ?? []).map(step)],
      perItem: itemTransforms.length,
      branches: recap.distribute.map((distributor, index) => ({
        index,
        transforms: (distributor.transform ?? []).map(step),
        distributor: step(distributor),
      })),
      entries: [{ chain: "global", from: 0, input: digest }],
    },
    note: null,
  };
}
