import { sql } from "drizzle-orm";
import type { Database } from "../db/index.ts";
import { queryRows } from "../db/sql.ts";
import { xBudgetWindow } from "../intake/x-budget.ts";
import type { XBudget } from "../intake/x-budget-store.ts";
import { ACKNOWLEDGE_STEP, stepChannel } from "../processing/shared.ts";
import { channelLabel, pluginLabel } from "../telemetry/metrics.ts";

/**
 * What the Operations page, `/metrics` and the alert check read of the system's state: all from the database, so
 * every API and worker process answers the same. Each read is bounded (open jobs only, a time window, a limit) and
 * uses an index, so a scrape every few seconds costs little at a million jobs.
 */

export interface QueueState {
  kind: string;
  pending: number;
  processing: number;
  /** When the longest-waiting pending job became ready to run (its undo window over); null: none waits. */
  oldestReadyAt: Date | null;
}

/** Open jobs (pending, processing) by kind, with the oldest pending one's ready time. */
export async function queueStates(db: Database): Promise<QueueState[]> {
  const rows = await queryRows<{ kind: string; status: string; n: number; oldest: string | Date | null }>(
    db,
    sql`select kind, status, count(*)::int as n,
        min(greatest(created_at, not_before)) filter (where status = 'pending') as oldest
      from processing_jobs where status in ('pending', 'processing') and kind <> 'dry_run'
      group by kind, status`,
  );
  const byKind = new Map<string, QueueState>();
  for (const row of rows) {
    const state = byKind.get(row.kind) ?? { kind: row.kind, pending: 0, processing: 0, oldestReadyAt: null };
    if (row.status === "pending") {
      state.pending = row.n;
      state.oldestReadyAt = row.oldest ? new Date(row.oldest) : null;
    } else state.processing = row.n;
    byKind.set(row.kind, state);
  }
  return [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

/** Seconds the longest-waiting job of a queue has waited at `now` (never negative: a future undo window is 0). */
export function ageSeconds(readyAt: Date | null, now: Date): number | null {
  return readyAt ? Math.max(0, Math.round((now.getTime() - readyAt.getTime()) / 1000)) : null;
}

export interface StepRate {
  plugin: string;
  channel: string;
  total: number;
  failed: number;
}

/**
 * Steps that ended since `since` (dry runs left out), by plugin (built-ins by name, registered plugins as
 * `external`) and channel: the distributor or network a step's branch publishes to, `none` for global transforms.
 */
export async function stepRates(db: Database, since: Date): Promise<StepRate[]> {
  const rows = await queryRows<{
    plugin: string;
    type: string;
    branchPlugin: string | null;
    network: string | null;
    failed: boolean;
    n: number;
  }>(
    db,
    sql`select s.plugin_name as plugin, s.type,
        j.plan -> 'branches' -> s.branch -> 'distributor' ->> 'plugin' as "branchPlugin",
        case when s.plugin_name = ${ACKNOWLEDGE_STEP} then s.input ->> 'network' end as network,
        s.status = 'failed' as failed, count(*)::int as n
      from processing_steps s join processing_jobs j on j.id = s.job_id
      where s.completed_at >= ${since.toISOString()} and s.status in ('success', 'failed') and j.kind <> 'dry_run'
      group by 1, 2, 3, 4, 5`,
  );
  const rates = new Map<string, StepRate>();
  for (const row of rows) {
    const plugin = row.plugin === ACKNOWLEDGE_STEP ? ACKNOWLEDGE_STEP : pluginLabel(row.plugin);
    const channel = channelLabel(stepChannel(row.plugin, row.type, row.branchPlugin, row.network));
    const key = `${plugin}\u0000${channel}`;
    const rate = rates.get(key) ?? { plugin, channel, total: 0, failed: 0 };
    rate.total += row.n;
    if (row.failed) rate.failed += row.n;
    rates.set(key, rate);
  }
  return [...rates.values()].sort(
    (a, b) => a.plugin.localeCompare(b.plugin) || a.channel.localeCompare(b.channel),
  );
}

export interface WorkerState {
  id: string;
  host: string;
  pid: number;
  role: string;
  version: string;
  running: number;
  concurrency: number;
  startedAt: Date;
  lastSeenAt: Date;
}

export async function workerStates(db: Database): Promise<WorkerState[]> {
  return queryRows<WorkerState>(
    db,
    sql`select id, host, pid, role, version, running, concurrency, started_at as "startedAt",
        last_seen_at as "lastSeenAt" from worker_heartbeats order by started_at limit 100`,
  ).then((rows) =>
    rows.map((row) => ({ ...row, startedAt: new Date(row.startedAt), lastSeenAt: new Date(row.lastSeenAt) })),
  );
}

/** A worker is live while its last heartbeat is at most three intervals old. */
export function isLive(
  worker: Pick<WorkerState, "lastSeenAt">,
  now: Date,
  heartbeatSeconds: number,
): boolean {
  return now.getTime() - worker.lastSeenAt.getTime() <= 3 * heartbeatSeconds * 1000;
}

export interface IntakeSourceState {
  sourceKey: string;
  network: string;
  feedId: string | null;
  cursor: string | null;
  lastPollAt: Date | null;
  lastSuccessAt: Date | null;
  nextPollAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  createdAt: Date;
}

const asDate = (value: string | Date | null) => (value === null ? null : new Date(value));

/** Intake sources, the longest without a successful read first. */
export async function intakeSourceStates(db: Database, limit = 200): Promise<IntakeSourceState[]> {
  const rows = await queryRows<Record<string, string | Date | null>>(
    db,
    sql`select i.source_key as "sourceKey", i.network, i.feed_id as "feedId", c.cursor,
        i.last_poll_at as "lastPollAt", i.last_success_at as "lastSuccessAt", i.next_poll_at as "nextPollAt",
        i.last_error as "lastError", i.last_error_at as "lastErrorAt", i.created_at as "createdAt"
      from intake_sources i left join source_cursors c on c.source_key = i.source_key
      order by coalesce(i.last_success_at, i.created_at), i.source_key limit ${limit}`,
  );
  return rows.map((row) => ({
    sourceKey: row.sourceKey as string,
    network: row.network as string,
    feedId: row.feedId as string | null,
    cursor: row.cursor as string | null,
    lastPollAt: asDate(row.lastPollAt),
    lastSuccessAt: asDate(row.lastSuccessAt),
    nextPollAt: asDate(row.nextPollAt),
    lastError: row.lastError as string | null,
    lastErrorAt: asDate(row.lastErrorAt),
    createdAt: new Date(row.createdAt as string),
  }));
}

/**
 * Minutes a source has gone without a successful read beyond its own polling interval (0 while on time): a feed
 * searched once a day is not silent after an hour, a bot's mentions polled each minute are.
 */
export function silentMinutes(source: IntakeSourceState, now: Date): number {
  const since = source.lastSuccessAt ?? source.createdAt;
  const interval =
    source.nextPollAt && source.lastPollAt ? source.nextPollAt.getTime() - source.lastPollAt.getTime() : 0;
  return Math.max(0, Math.floor((now.getTime() - since.getTime() - Math.max(0, interval)) / 60_000));
}

export interface BudgetState {
  name: string;
  limit: number;
  used: number;
  left: number;
  windowEnd: Date;
}

/** The operator's hourly X API budget in the window `now` falls in. */
export async function xBudgetState(budget: XBudget, now: Date): Promise<BudgetState> {
  const window = xBudgetWindow(now);
  const used = await budget.spent(window);
  return {
    name: "x_api",
    limit: budget.limit,
    used,
    left: Math.max(0, budget.limit - used),
    windowEnd: window.end,
  };
}

export interface RecentError {
  jobId: string;
  feedId: string;
  /** The post the job published (its page lists the job), or null for a recap. */
  submissionId: string | null;
  stepId: string;
  plugin: string;
  stepName: string | null;
  code: string | null;
  message: string;
  at: Date;
}

/** The latest failed steps of the last day (dry runs left out), newest first. */
export async function recentErrors(db: Database, now: Date, limit = 20): Promise<RecentError[]> {
  const since = new Date(now.getTime() - 24 * 3600_000);
  const rows = await queryRows<{
    jobId: string;
    feedId: string;
    submissionId: string | null;
    stepId: string;
    plugin: string;
    stepName: string | null;
    error: { code?: string; message?: string } | null;
    at: string | Date;
  }>(
    db,
    sql`select s.job_id as "jobId", j.feed_id as "feedId", j.submission_id as "submissionId", s.id as "stepId", s.plugin_name as plugin,
        s.step_name as "stepName", s.error, s.completed_at as at
      from processing_steps s join processing_jobs j on j.id = s.job_id
      where s.status = 'failed' and s.completed_at >= ${since.toISOString()} and j.kind <> 'dry_run'
      order by s.completed_at desc limit ${limit}`,
  );
  return rows.map((row) => ({
    jobId: row.jobId,
    feedId: row.feedId,
    submissionId: row.submissionId,
    stepId: row.stepId,
    plugin: row.plugin,
    stepName: row.stepName,
    code: typeof row.error?.code === "string" ? row.error.code : null,
    message: (typeof row.error?.message === "string" ? row.error.message : "Failed").slice(0, 500),
    at: new Date(row.at),
  }));
}

export interface PausedChannelState {
  feedId: string;
  pluginName: string;
  stepName: string | null;
  code: string;
  message: string;
  jobId: string | null;
  pausedAt: Date;
}

export async function pausedChannels(db: Database, limit = 100): Promise<PausedChannelState[]> {
  const rows = await queryRows<PausedChannelState & { pausedAt: string | Date }>(
    db,
    sql`select feed_id as "feedId", plugin_name as "pluginName", step_name as "stepName", code, message,
        job_id as "jobId", paused_at as "pausedAt" from channel_pauses order by paused_at desc limit ${limit}`,
  );
  return rows.map((row) => ({
    ...row,
    message: row.message.slice(0, 500),
    pausedAt: new Date(row.pausedAt),
  }));
}

export interface OpenAlert {
  id: number;
  kind: string;
  subject: string;
  message: string;
  openedAt: Date;
}

export async function openAlerts(db: Database): Promise<OpenAlert[]> {
  const rows = await queryRows<OpenAlert & { openedAt: string | Date }>(
    db,
    sql`select id, kind, subject, message, opened_at as "openedAt" from operation_alerts
      where resolved_at is null order by opened_at desc limit 100`,
  );
  return rows.map((row) => ({ ...row, openedAt: new Date(row.openedAt) }));
}
