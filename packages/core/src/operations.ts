import { z } from "zod";
import { ALERT_KINDS } from "./operations-rules.ts";

/** The Operations page (super admins): GET /api/operations answers this overview of the running system. */

const iso = z.string().max(40);

export const operationsWorkerSchema = z.object({
  id: z.string().max(100),
  host: z.string().max(255),
  pid: z.number().int(),
  role: z.string().max(20),
  version: z.string().max(100),
  running: z.number().int(),
  concurrency: z.number().int(),
  startedAt: iso,
  lastSeenAt: iso,
  /** Its heartbeat is at most three intervals old. */
  live: z.boolean(),
});

export const operationsQueueSchema = z.object({
  kind: z.string().max(40),
  pending: z.number().int(),
  processing: z.number().int(),
  /** How long the longest-waiting job has waited to run, in seconds; null when none waits. */
  oldestAgeSeconds: z.number().int().nullable(),
});

export const operationsFailureRateSchema = z.object({
  plugin: z.string().max(100),
  channel: z.string().max(100),
  total: z.number().int(),
  failed: z.number().int(),
  /** failed / total, 0 to 1. */
  rate: z.number(),
});

export const operationsIntakeSourceSchema = z.object({
  sourceKey: z.string().max(500),
  network: z.string().max(40),
  feedId: z.string().max(100).nullable(),
  cursor: z.string().max(200).nullable(),
  lastPollAt: iso.nullable(),
  lastSuccessAt: iso.nullable(),
  nextPollAt: iso.nullable(),
  lastError: z.string().max(500).nullable(),
  lastErrorAt: iso.nullable(),
  /** Minutes without a successful read beyond the source's own interval (0: on time). */
  silentMinutes: z.number().int(),
});

export const operationsBudgetSchema = z.object({
  name: z.string().max(40),
  limit: z.number().int(),
  used: z.number().int(),
  left: z.number().int(),
  windowEnd: iso,
});

export const operationsPausedChannelSchema = z.object({
  feedId: z.string().max(100),
  pluginName: z.string().max(200),
  stepName: z.string().max(200).nullable(),
  code: z.string().max(100),
  message: z.string().max(500),
  jobId: z.string().max(100).nullable(),
  pausedAt: iso,
});

export const operationsRecentErrorSchema = z.object({
  jobId: z.string().max(100),
  feedId: z.string().max(100),
  /** The post the job published: its page lists the job (null for a recap). */
  submissionId: z.string().max(200).nullable(),
  stepId: z.string().max(100),
  plugin: z.string().max(200),
  stepName: z.string().max(200).nullable(),
  code: z.string().max(100).nullable(),
  message: z.string().max(500),
  at: iso,
});

export const operationsLogCheckSchema = z.discriminatedUnion("available", [
  z.object({ available: z.literal(false) }),
  z.object({
    available: z.literal(true),
    /** `pending`: registered, but no check has finished yet (or the last read failed: see `error`). */
    state: z.enum(["ok", "broken", "pending"]),
    checkedAt: iso.nullable(),
    brokenFeeds: z.array(z.string().max(100)).max(50),
    message: z.string().max(500).nullable(),
  }),
]);

export const operationsAlertSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  subject: z.string().max(500),
  message: z.string().max(1000),
  openedAt: iso,
});

export const operationsOverviewSchema = z.object({
  generatedAt: iso,
  workers: z.array(operationsWorkerSchema).max(100),
  queues: z.array(operationsQueueSchema).max(20),
  failureRates: z.object({
    windowMinutes: z.number().int(),
    rows: z.array(operationsFailureRateSchema).max(500),
  }),
  intakeSources: z.array(operationsIntakeSourceSchema).max(200),
  budgets: z.array(operationsBudgetSchema).max(10),
  pausedChannels: z.array(operationsPausedChannelSchema).max(100),
  recentErrors: z.array(operationsRecentErrorSchema).max(20),
  logCheck: operationsLogCheckSchema,
  alerts: z.object({
    /** Where notices go (none: alerts open and resolve on this page only). */
    targets: z.array(z.enum(["webhook", "telegram"])).max(2),
    open: z.array(operationsAlertSchema).max(100),
  }),
});

export type OperationsOverview = z.infer<typeof operationsOverviewSchema>;
export type OperationsWorker = z.infer<typeof operationsWorkerSchema>;
export type OperationsQueue = z.infer<typeof operationsQueueSchema>;
export type OperationsFailureRate = z.infer<typeof operationsFailureRateSchema>;
export type OperationsIntakeSource = z.infer<typeof operationsIntakeSourceSchema>;
export type OperationsBudget = z.infer<typeof operationsBudgetSchema>;
export type OperationsPausedChannel = z.infer<typeof operationsPausedChannelSchema>;
export type OperationsRecentError = z.infer<typeof operationsRecentErrorSchema>;
export type OperationsLogCheck = z.infer<typeof operationsLogCheckSchema>;
export type OperationsAlert = z.infer<typeof operationsAlertSchema>;
