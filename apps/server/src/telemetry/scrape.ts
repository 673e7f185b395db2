import { createHash, timingSafeEqual } from "node:crypto";
import { Gauge, Registry } from "prom-client";
import type { DatabaseHandle } from "../db/index.ts";
import type { XBudget } from "../intake/x-budget-store.ts";
import {
  ageSeconds,
  intakeSourceStates,
  isLive,
  openAlerts,
  queueStates,
  workerStates,
  xBudgetState,
} from "../operations/state.ts";
import { type Metrics, networkLabel } from "./metrics.ts";

export interface ScrapeDeps {
  database: DatabaseHandle;
  /** The composition's own instruments, answered beside the state read at each scrape. */
  metrics: Metrics;
  xBudget: XBudget;
  heartbeatSeconds: number;
  clock?: () => Date;
}

const ALERT_KINDS = ["queue_age", "failure_rate", "source_silent", "budget_exhausted", "log_chain_broken"];

/**
 * What `/metrics` answers: the composition's own instruments and, read from the database at each scrape, the state
 * every process shares (queues, budget, workers, intake sources, open alerts). Scrapes arriving together share one
 * read.
 */
export function createScraper(deps: ScrapeDeps) {
  const registry = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const jobsOpen = gauge("curate_jobs_open", "Processing jobs not finished, by kind and status", [
    "kind",
    "status",
  ]);
  const queueDepth = gauge("curate_queue_depth", "Processing jobs waiting to run, by kind", ["kind"]);
  const queueAge = gauge(
    "curate_queue_oldest_age_seconds",
    "How long the longest-waiting job of each kind has waited to run",
    ["kind"],
  );
  const budgetUsed = gauge("curate_upstream_budget_used", "Calls of an upstream budget used this window", [
    "upstream",
  ]);
  const budgetLeft = gauge("curate_upstream_budget_left", "Calls of an upstream budget left this window", [
    "upstream",
  ]);
  const pool = gauge("curate_db_pool_connections", "Database connections of this process's pool, by state", [
    "state",
  ]);
  const poolMax = gauge("curate_db_pool_max", "The most connections this process's pool opens", []);
  const workers = gauge("curate_workers", "Worker processes by heartbeat state (live, stale)", ["state"]);
  const silence = gauge(
    "curate_intake_last_success_age_seconds",
    "Time since the least recently successful intake source of each network last read",
    ["network"],
  );
  const alerts = gauge("curate_alerts_open", "Open operation alerts by kind", ["kind"]);

  const collect = async (): Promise<string> => {
    deps.metrics.startProcessMetrics();
    const now = deps.clock?.() ?? new Date();
    const { db } = deps.database;
    const [queues, budget, workerRows, sources, open] = await Promise.all([
      queueStates(db),
      xBudgetState(deps.xBudget, now),
      workerStates(db),
      intakeSourceStates(db, 10_000),
      openAlerts(db),
    ]);
    for (const metric of [jobsOpen, queueDepth, queueAge, workers, silence, alerts]) metric.reset();
    for (const queue of queues) {
      jobsOpen.set({ kind: queue.kind, status: "pending" }, queue.pending);
      jobsOpen.set({ kind: queue.kind, status: "processing" }, queue.processing);
      queueDepth.set({ kind: queue.kind }, queue.pending);
      queueAge.set({ kind: queue.kind }, ageSeconds(queue.oldestReadyAt, now) ?? 0);
    }
    budgetUsed.set({ upstream: budget.name }, budget.used);
    budgetLeft.set({ upstream: budget.name }, budget.left);
    const stats = deps.database.poolStats();
    pool.set({ state: "total" }, stats.total);
    pool.set({ state: "idle" }, stats.idle);
    pool.set({ state: "waiting" }, stats.waiting);
    poolMax.set(stats.max);
    const live = workerRows.filter((worker) => isLive(worker, now, deps.heartbeatSeconds)).length;
    workers.set({ state: "live" }, live);
    workers.set({ state: "stale" }, workerRows.length - live);
    const oldest = new Map<string, number>();
    for (const source of sources) {
      const network = networkLabel(source.network);
      const since = source.lastSuccessAt ?? source.createdAt;
      const age = Math.max(0, (now.getTime() - since.getTime()) / 1000);
      oldest.set(network, Math.max(oldest.get(network) ?? 0, age));
    }
    for (const [network, age] of oldest) silence.set({ network }, Math.round(age));
    for (const kind of ALERT_KINDS) alerts.set({ kind }, open.filter((alert) => alert.kind === kind).length);
    return Registry.merge([deps.metrics.registry, registry]).metrics();
  };

  let inFlight: Promise<string> | null = null;
  return {
    contentType: registry.contentType,
    scrape(): Promise<string> {
      inFlight ??= collect().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}

export type Scraper = ReturnType<typeof createScraper>;

/** Whether an Authorization header carries the bearer token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S{1,512})$/i.exec(header?.trim() ?? "")?.[1];
  if (!given) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}
