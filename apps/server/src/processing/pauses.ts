import { createHash, randomUUID } from "node:crypto";
import type { ChannelPause, ResumeChannelsAnswer } from "@curate/core";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { channelPauses, processingJobs } from "../db/schema.ts";
import { isoUtc, queryRows } from "../db/sql.ts";
import { CREDENTIALS_REJECTED } from "../plugins/types.ts";
import type { Plan, PlanEntry } from "./plan.ts";
import type { StepError } from "./shared.ts";

/** The code of a step held because its channel is paused. */
export const CHANNEL_PAUSED = "CHANNEL_PAUSED";
const HELD_CODES = [CHANNEL_PAUSED, CREDENTIALS_REJECTED];
/** Held publications one resume sends again; the rest stay for Retry Failed on the processing tab. */
const MAX_REQUEUE = 5000;
/**
 * Refusals shortly before a pause belong to it: the refused step is written before its pause, and jobs running at
 * the same time may have been refused before the first pause was recorded.
 */
const REFUSALS_BEFORE_PAUSE_MS = 15 * 60_000;

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * One destination of a feed: the plugin and its config as written (placeholders unfilled). A new secret value
 * keeps the key (so it resumes the same channel); a config pointing elsewhere is another destination.
 */
export function channelKeyOf(pluginName: string, config: unknown): string {
  const digest = createHash("sha256").update(canonicalJson(config)).digest("hex").slice(0, 24);
  return `${pluginName}:${digest}`;
}

export async function findChannelPause(db: Database, feedId: string, channelKey: string) {
  const [pause] = await db
    .select()
    .from(channelPauses)
    .where(and(eq(channelPauses.feedId, feedId), eq(channelPauses.channelKey, channelKey)));
  return pause ?? null;
}

export function pausedStepError(pause: { message: string; stepName: string | null; pluginName: string }) {
  const where = pause.stepName ?? pause.pluginName;
  return {
    message: `Publishing to ${where} is paused for this feed because it refused the feed's credentials: ${pause.message} Fix that, then press Resume publishing on the processing tab (setting one of the feed's secrets resumes it too).`,
    code: CHANNEL_PAUSED,
    retryable: false,
  } satisfies StepError;
}

export async function pauseChannel(
  db: Database,
  pause: {
    feedId: string;
    channelKey: string;
    pluginName: string;
    stepName: string | null;
    error: StepError;
    jobId: string;
  },
) {
  await db
    .insert(channelPauses)
    .values({
      feedId: pause.feedId,
      channelKey: pause.channelKey,
      pluginName: pause.pluginName,
      stepName: pause.stepName,
      code: pause.error.code,
      message: pause.error.message.slice(0, 2000),
      jobId: pause.jobId,
    })
    .onConflictDoNothing();
}

/** Held steps: refused by the channel or held since, in jobs with no later job for the same post. */
const heldStepsQuery = (feedId: string, since: string) => sql`
  select st.id, st.job_id as "jobId", st.branch, st.position, st.input, st.error->>'channelKey' as "channelKey"
  from processing_steps st join processing_jobs j on j.id = st.job_id
  where j.feed_id = ${feedId} and j.status in ('failed', 'completed_with_errors')
    and st.status = 'failed' and st.error->>'code' in (${sql.join(
      HELD_CODES.map((code) => sql`${code}`),
      sql`, `,
    )})
    and st.completed_at >= ${since}::timestamptz
    and not exists (select 1 from processing_jobs later where later.feed_id = j.feed_id
      and later.submission_id = j.submission_id and later.created_at > j.created_at)`;

interface HeldStep {
  id: string;
  jobId: string;
  branch: number | null;
  position: number;
  input: unknown;
  channelKey: string | null;
}

/** The feed's paused channels, each with how many publications wait for it. */
export async function listChannelPauses(db: Database, feedId: string): Promise<ChannelPause[]> {
  const pauses = await queryRows<{
    channelKey: string;
    pluginName: string;
    stepName: string | null;
    code: string;
    message: string;
    pausedAt: string;
  }>(
    db,
    sql`select channel_key as "channelKey", plugin_name as "pluginName", step_name as "stepName", code, message,
        ${isoUtc("paused_at")} as "pausedAt"
      from channel_pauses where feed_id = ${feedId} order by paused_at`,
  );
  if (pauses.length === 0) return [];
  const since = new Date(
    Math.min(...pauses.map((pause) => Date.parse(pause.pausedAt))) - REFUSALS_BEFORE_PAUSE_MS,
  ).toISOString();
  const held = await queryRows<HeldStep>(db, sql`${heldStepsQuery(feedId, since)} limit ${MAX_REQUEUE}`);
  return pauses.map((pause) => ({
    ...pause,
    held: held.filter((step) => step.channelKey === pause.channelKey).length,
  }));
}

export async function countChannelPauses(db: Database, feedId: string): Promise<number> {
  const [row] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from channel_pauses where feed_id = ${feedId}`,
  );
  return row?.total ?? 0;
}

/**
 * Lifts the feed's pauses (one channel, or all) and sends their held publications again: one retry job per held
 * job, from the held steps' stored inputs and with the same publication key, so channels that deduplicate still
 * see one publication.
 */
export async function resumeFeedChannels(
  db: Database,
  feedId: string,
  requestedBy: string,
  channelKey?: string,
): Promise<ResumeChannelsAnswer> {
  return db.transaction(async (tx) => {
    const lifted = await tx
      .delete(channelPauses)
      .where(
        channelKey
          ? and(eq(channelPauses.feedId, feedId), eq(channelPauses.channelKey, channelKey))
          : eq(channelPauses.feedId, feedId),
      )
      .returning({ channelKey: channelPauses.channelKey, pausedAt: channelPauses.pausedAt });
    if (lifted.length === 0) return { resumed: 0, requeued: 0 };
    const keys = new Set(lifted.map((pause) => pause.channelKey));
    const since = new Date(
      Math.min(...lifted.map((pause) => pause.pausedAt.getTime())) - REFUSALS_BEFORE_PAUSE_MS,
    ).toISOString();
    const held = (
      await queryRows<HeldStep>(tx, sql`${heldStepsQuery(feedId, since)} limit ${MAX_REQUEUE}`)
    ).filter((step) => step.channelKey !== null && keys.has(step.channelKey));
    const byJob = new Map<string, HeldStep[]>();
    for (const step of held) byJob.set(step.jobId, [...(byJob.get(step.jobId) ?? []), step]);
    if (byJob.size === 0) return { resumed: lifted.length, requeued: 0 };
    const originals = await tx
      .select()
      .from(processingJobs)
      .where(
        sql`${processingJobs.id} in (${sql.join(
          [...byJob.keys()].map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    const rows = originals.flatMap((original) => {
      const plan = original.plan as Plan | null;
      if (!plan) return [];
      const entries: PlanEntry[] = (byJob.get(original.id) ?? []).map((step) => ({
        chain: step.branch === null ? "global" : step.branch,
        from: step.position,
        input: step.input,
      }));
      const id = randomUUID();
      return [
        {
          id,
          kind: "retry" as const,
          submissionId: original.submissionId,
          feedId,
          status: "pending" as const,
          idempotencyKey: `resume:${original.id}:${id}`,
          retryOfJobId: original.id,
          plan: { ...plan, entries },
          publicationKey: original.publicationKey ?? original.idempotencyKey,
          requestedBy,
        },
      ];
    });
    for (let start = 0; start < rows.length; start += 500) {
      await tx.insert(processingJobs).values(rows.slice(start, start + 500));
    }
    return { resumed: lifted.length, requeued: rows.length };
  });
}
