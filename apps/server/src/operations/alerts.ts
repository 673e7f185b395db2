import { ALERT_KIND_LABELS, type AlertKind } from "@curate/core";
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { callExternal } from "../clients/http.ts";
import { webhookSignature } from "../clients/webhook-signature.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { queryRows, tryExclusive } from "../db/sql.ts";
import type { XBudget } from "../intake/x-budget-store.ts";
import { type LogSelfCheck, readLogCheck } from "./log-check.ts";
import {
  ageSeconds,
  intakeSourceStates,
  queueStates,
  silentMinutes,
  stepRates,
  xBudgetState,
} from "./state.ts";

export type AlertTarget = "webhook" | "telegram";

type AlertSettings = Pick<
  AppEnv,
  | "ALERT_WEBHOOK_URL"
  | "ALERT_WEBHOOK_SECRET"
  | "ALERT_TELEGRAM_BOT_TOKEN"
  | "ALERT_TELEGRAM_CHAT_ID"
  | "ALERT_QUEUE_AGE_MINUTES"
  | "ALERT_FAILURE_RATE_PERCENT"
  | "ALERT_FAILURE_MIN_STEPS"
  | "ALERT_FAILURE_WINDOW_MINUTES"
  | "ALERT_SOURCE_SILENT_MINUTES"
  | "TELEGRAM_API_BASE_URL"
  | "PUBLIC_URL"
>;

/** Where notices go: none configured means alerts open and resolve on the Operations page only. */
export function alertTargets(env: AlertSettings): AlertTarget[] {
  return [
    ...(env.ALERT_WEBHOOK_URL ? (["webhook"] as const) : []),
    ...(env.ALERT_TELEGRAM_BOT_TOKEN && env.ALERT_TELEGRAM_CHAT_ID ? (["telegram"] as const) : []),
  ];
}

export interface AlertDeps {
  db: Database;
  env: AlertSettings;
  xBudget: XBudget;
  logSelfCheck?: LogSelfCheck;
  logger: Logger;
}

/** A condition that holds now; while it holds, its incident stays open. */
export interface AlertCondition {
  kind: AlertKind;
  /** What it is about (a queue's kind, a plugin and channel, a source, a budget): one incident per kind and subject. */
  subject: string;
  message: string;
}

const minutes = (seconds: number) => Math.floor(seconds / 60);

/** Every threshold crossed at `now` (decision 0028 lists them). */
export async function alertConditions(deps: AlertDeps, now: Date): Promise<AlertCondition[]> {
  const { db, env } = deps;
  const since = new Date(now.getTime() - env.ALERT_FAILURE_WINDOW_MINUTES * 60_000);
  const [queues, rates, sources, budget, logCheck] = await Promise.all([
    queueStates(db),
    stepRates(db, since),
    intakeSourceStates(db, 10_000),
    xBudgetState(deps.xBudget, now),
    readLogCheck(deps.logSelfCheck),
  ]);
  const conditions: AlertCondition[] = [];
  for (const queue of queues) {
    const age = ageSeconds(queue.oldestReadyAt, now) ?? 0;
    if (age >= env.ALERT_QUEUE_AGE_MINUTES * 60) {
      conditions.push({
        kind: "queue_age",
        subject: queue.kind,
        message: `The ${queue.kind} queue has a job waiting for ${minutes(age)} minutes (threshold ${env.ALERT_QUEUE_AGE_MINUTES}); ${queue.pending} waiting, ${queue.processing} running.`,
      });
    }
  }
  for (const rate of rates) {
    if (rate.total < env.ALERT_FAILURE_MIN_STEPS) continue;
    const percent = Math.round((rate.failed / rate.total) * 100);
    if (percent < env.ALERT_FAILURE_RATE_PERCENT) continue;
    conditions.push({
      kind: "failure_rate",
      subject: `${rate.plugin} → ${rate.channel}`,
      message: `${rate.plugin} (channel ${rate.channel}) failed ${rate.failed} of ${rate.total} steps (${percent}%) in the last ${env.ALERT_FAILURE_WINDOW_MINUTES} minutes (threshold ${env.ALERT_FAILURE_RATE_PERCENT}%).`,
    });
  }
  for (const source of sources) {
    const silent = silentMinutes(source, now);
    if (silent < env.ALERT_SOURCE_SILENT_MINUTES) continue;
    const since = source.lastSuccessAt ? `since ${source.lastSuccessAt.toISOString()}` : "since it was added";
    conditions.push({
      kind: "source_silent",
      subject: source.sourceKey,
      message: `Intake source ${source.sourceKey} (${source.network}) has not read successfully ${since}, ${silent} minutes past its polling interval (threshold ${env.ALERT_SOURCE_SILENT_MINUTES}).${source.lastError ? ` Last error: ${source.lastError}` : ""}`,
    });
  }
  if (budget.limit > 0 && budget.left === 0) {
    conditions.push({
      kind: "budget_exhausted",
      subject: budget.name,
      message: `The X API budget for this hour is spent (${budget.used} of ${budget.limit} calls); X intake and replies wait until ${budget.windowEnd.toISOString()}.`,
    });
  }
  if (logCheck.available && logCheck.status?.state === "broken") {
    const feeds = logCheck.status.brokenFeeds.slice(0, 10);
    conditions.push({
      kind: "log_chain_broken",
      subject: "moderation_log",
      message: `The moderation log's self-check found a broken chain${feeds.length ? ` (feeds: ${feeds.join(", ")})` : ""}.${logCheck.status.message ? ` ${logCheck.status.message}` : ""}`,
    });
  }
  return conditions.map((condition) => ({
    ...condition,
    subject: condition.subject.slice(0, 500),
    message: condition.message.slice(0, 1000),
  }));
}

interface AlertRow {
  id: number;
  kind: AlertKind;
  subject: string;
  message: string;
  openedAt: Date;
  resolvedAt: Date | null;
  openNotifiedAt: Date | null;
  resolveNotifiedAt: Date | null;
}

export type NoticeEvent = "alert.opened" | "alert.resolved";

/** The text a person reads (Telegram, and `text` in the webhook's JSON). */
export function noticeText(
  event: NoticeEvent,
  alert: Pick<AlertRow, "kind" | "message" | "openedAt">,
  at: Date,
) {
  const label = ALERT_KIND_LABELS[alert.kind];
  if (event === "alert.opened") return `🔴 Curate alert — ${label}: ${alert.message}`;
  const lasted = Math.max(1, Math.round((at.getTime() - alert.openedAt.getTime()) / 60_000));
  return `✅ Resolved after ${lasted} min — ${label}: ${alert.message}`;
}

/**
 * Sends one notice to every target; it counts as sent once a target took it (a target that failed is logged and
 * misses it, rather than the others getting it twice). With no target, there is nothing to send.
 */
async function sendNotice(deps: AlertDeps, event: NoticeEvent, alert: AlertRow, at: Date): Promise<boolean> {
  const { env, logger } = deps;
  const targets = alertTargets(env);
  if (targets.length === 0) return true;
  const text = noticeText(event, alert, at);
  const outcomes = await Promise.all(
    targets.map(async (target) => {
      try {
        const response =
          target === "webhook"
            ? await sendWebhook(env, event, alert, text)
            : await callExternal(
                `${env.TELEGRAM_API_BASE_URL.replace(/\/+$/, "")}/bot${env.ALERT_TELEGRAM_BOT_TOKEN}/sendMessage`,
                {
                  method: "POST",
                  headers: { "content-type": "application/json" },
                  body: JSON.stringify({
                    chat_id: env.ALERT_TELEGRAM_CHAT_ID,
                    text,
                    link_preview_options: { is_disabled: true },
                  }),
                },
                { service: "Telegram Bot API", reach: "configured", retries: 1, logger },
              );
        await response.body?.cancel();
        if (!response.ok) throw new Error(`${target} answered ${response.status}`);
        return true;
      } catch (error) {
        logger.warn({ err: error, target, alert: alert.id, event }, "alert notice could not be delivered");
        return false;
      }
    }),
  );
  return outcomes.some(Boolean);
}

function sendWebhook(env: AlertSettings, event: NoticeEvent, alert: AlertRow, text: string) {
  const body = JSON.stringify({
    event,
    instance: env.PUBLIC_URL,
    data: {
      id: alert.id,
      kind: alert.kind,
      subject: alert.subject,
      message: alert.message,
      openedAt: alert.openedAt.toISOString(),
      resolvedAt: alert.resolvedAt?.toISOString() ?? null,
      text,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return callExternal(
    env.ALERT_WEBHOOK_URL as string,
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-curate-event": event,
        // The same for every attempt at this notice, so a receiver can drop one it already has.
        "x-curate-delivery": `alert-${alert.id}-${event === "alert.opened" ? "opened" : "resolved"}`,
        "x-curate-timestamp": timestamp,
        ...(env.ALERT_WEBHOOK_SECRET
          ? { "x-curate-signature": webhookSignature(env.ALERT_WEBHOOK_SECRET, timestamp, body) }
          : {}),
      },
      body,
    },
    { service: "Alert webhook", reach: "configured", retries: 1 },
  );
}

export interface AlertCheck {
  /** Whether this process ran the check (another worker may hold it). */
  ran: boolean;
  opened: number;
  resolved: number;
  notices: number;
}

const NOTICES_PER_CHECK = 50;

/**
 * One alert check at `now`: opens an incident for each condition that has none, resolves the open ones whose
 * condition no longer holds, then sends the notices not yet sent — one when an incident opens, one when it
 * resolves. A notice that could not be delivered is tried again at the next check. One check at a time over every
 * worker.
 */
export async function checkAlerts(deps: AlertDeps, now: Date): Promise<AlertCheck> {
  const locked = await tryExclusive(deps.db, "curate-operation-alerts", () => runCheck(deps, now));
  return locked.ran ? locked.value : { ran: false, opened: 0, resolved: 0, notices: 0 };
}

async function runCheck(deps: AlertDeps, now: Date): Promise<AlertCheck> {
  const { db } = deps;
  const conditions = await alertConditions(deps, now);
  const open = await queryRows<{ id: number; kind: string; subject: string }>(
    db,
    sql`select id, kind, subject from operation_alerts where resolved_at is null`,
  );
  const key = (alert: { kind: string; subject: string }) => `${alert.kind}\u0000${alert.subject}`;
  const holding = new Set(conditions.map(key));
  const openKeys = new Set(open.map(key));
  const at = now.toISOString();
  let opened = 0;
  for (const condition of conditions) {
    if (openKeys.has(key(condition))) continue;
    const rows = await queryRows<{ id: number }>(
      db,
      sql`insert into operation_alerts (kind, subject, message, opened_at)
        values (${condition.kind}, ${condition.subject}, ${condition.message}, ${at})
        on conflict (kind, subject) where resolved_at is null do nothing returning id`,
    );
    opened += rows.length;
  }
  const ended = open.filter((alert) => !holding.has(key(alert))).map((alert) => alert.id);
  if (ended.length) {
    await db.execute(
      sql`update operation_alerts set resolved_at = ${at}
        where resolved_at is null and id = any(${sql`array[${sql.join(
          ended.map((id) => sql`${id}`),
          sql`, `,
        )}]::int[]`})`,
    );
  }

  const due = await queryRows<AlertRow>(
    db,
    sql`select id, kind, subject, message, opened_at as "openedAt", resolved_at as "resolvedAt",
        open_notified_at as "openNotifiedAt", resolve_notified_at as "resolveNotifiedAt"
      from operation_alerts
      where open_notified_at is null or (resolved_at is not null and resolve_notified_at is null)
      order by id limit ${NOTICES_PER_CHECK}`,
  );
  let notices = 0;
  for (const raw of due) {
    const alert: AlertRow = {
      ...raw,
      openedAt: new Date(raw.openedAt),
      resolvedAt: raw.resolvedAt ? new Date(raw.resolvedAt) : null,
    };
    if (!alert.openNotifiedAt) {
      if (!(await sendNotice(deps, "alert.opened", alert, now))) continue;
      await db.execute(sql`update operation_alerts set open_notified_at = ${at} where id = ${alert.id}`);
      notices++;
    }
    if (alert.resolvedAt) {
      if (!(await sendNotice(deps, "alert.resolved", alert, now))) continue;
      await db.execute(sql`update operation_alerts set resolve_notified_at = ${at} where id = ${alert.id}`);
      notices++;
    }
  }
  // Incidents stay listed a month after they were resolved and told, then go.
  await db.execute(
    sql`delete from operation_alerts where resolve_notified_at is not null
      and resolved_at < ${new Date(now.getTime() - 30 * 86_400_000).toISOString()}`,
  );
  return { ran: true, opened, resolved: ended.length, notices };
}
