import type { OperationsLogCheck, OperationsOverview } from "@curate/core";
import type { User } from "../auth/sessions.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { isSuperAdmin } from "../feeds/permissions.ts";
import type { XBudget } from "../intake/x-budget-store.ts";
import { alertTargets } from "./alerts.ts";
import { type LogCheckReading, type LogSelfCheck, readLogCheck } from "./log-check.ts";
import {
  ageSeconds,
  intakeSourceStates,
  isLive,
  openAlerts,
  pausedChannels,
  queueStates,
  recentErrors,
  silentMinutes,
  stepRates,
  workerStates,
  xBudgetState,
} from "./state.ts";

export interface OperationsDeps {
  db: Database;
  env: AppEnv;
  xBudget: XBudget;
  logSelfCheck?: LogSelfCheck;
  clock?: () => Date;
}

const BROKEN_FEEDS_SHOWN = 50;

/** The moderation log's self-check as the page shows it. */
export function logCheckView(reading: LogCheckReading): OperationsLogCheck {
  if (!reading.available) return { available: false };
  const status = reading.status;
  if (!status) {
    return {
      available: true,
      state: "pending",
      checkedAt: null,
      brokenFeeds: [],
      message: reading.error ? `The self-check could not be read: ${reading.error}`.slice(0, 500) : null,
    };
  }
  return {
    available: true,
    state: status.state,
    checkedAt: status.checkedAt.toISOString(),
    brokenFeeds: status.brokenFeeds.slice(0, BROKEN_FEEDS_SHOWN).map((feed) => feed.slice(0, 100)),
    message: status.message?.slice(0, 500) ?? null,
  };
}

/** Only super admins see how the instance runs (its sources, errors and budgets span every feed). */
export function requireSuperAdmin(env: AppEnv, user: User): void {
  if (!isSuperAdmin(env, user)) throw AppError.forbidden("Only super admins can see the Operations page.");
}

/** Everything the Operations page shows, read at `now`. */
export async function operationsOverview(deps: OperationsDeps, user: User): Promise<OperationsOverview> {
  requireSuperAdmin(deps.env, user);
  const now = deps.clock?.() ?? new Date();
  const { db, env } = deps;
  const windowMinutes = env.ALERT_FAILURE_WINDOW_MINUTES;
  const [workers, queues, rates, sources, budget, paused, errors, logCheck, alerts] = await Promise.all([
    workerStates(db),
    queueStates(db),
    stepRates(db, new Date(now.getTime() - windowMinutes * 60_000)),
    intakeSourceStates(db),
    xBudgetState(deps.xBudget, now),
    pausedChannels(db),
    recentErrors(db, now),
    readLogCheck(deps.logSelfCheck),
    openAlerts(db),
  ]);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    generatedAt: now.toISOString(),
    workers: workers.map((worker) => ({
      ...worker,
      startedAt: worker.startedAt.toISOString(),
      lastSeenAt: worker.lastSeenAt.toISOString(),
      live: isLive(worker, now, env.PROCESSING_HEARTBEAT_SECONDS),
    })),
    queues: queues.map((queue) => ({
      kind: queue.kind,
      pending: queue.pending,
      processing: queue.processing,
      oldestAgeSeconds: ageSeconds(queue.oldestReadyAt, now),
    })),
    failureRates: {
      windowMinutes,
      rows: rates.map((rate) => ({ ...rate, rate: rate.total ? rate.failed / rate.total : 0 })),
    },
    intakeSources: sources.map((source) => ({
      sourceKey: source.sourceKey,
      network: source.network,
      feedId: source.feedId,
      cursor: source.cursor?.slice(0, 200) ?? null,
      lastPollAt: iso(source.lastPollAt),
      lastSuccessAt: iso(source.lastSuccessAt),
      nextPollAt: iso(source.nextPollAt),
      lastError: source.lastError,
      lastErrorAt: iso(source.lastErrorAt),
      silentMinutes: silentMinutes(source, now),
    })),
    budgets: [{ ...budget, windowEnd: budget.windowEnd.toISOString() }],
    pausedChannels: paused.map((pause) => ({ ...pause, pausedAt: pause.pausedAt.toISOString() })),
    recentErrors: errors.map((error) => ({ ...error, at: error.at.toISOString() })),
    logCheck: logCheckView(logCheck),
    alerts: {
      targets: alertTargets(env),
      open: alerts.map((alert) => ({
        kind: alert.kind as OperationsOverview["alerts"]["open"][number]["kind"],
        subject: alert.subject.slice(0, 500),
        message: alert.message.slice(0, 1000),
        openedAt: alert.openedAt.toISOString(),
      })),
    },
  };
}
