import { z } from "zod";
import { pageQuery, paginationSchema } from "./envelope.ts";
import { LEADERBOARD_SORTS } from "./reputation-rules.ts";

export const leaderboardSortSchema = z.enum(LEADERBOARD_SORTS);

/** A curator's reputation in the answer's scope (one feed, or all): decisions by others only (decision 0030). */
export const curatorReputationSchema = z.object({
  /** Approved by someone other than the curator, and not retracted since. */
  approvedCount: z.number().int(),
  /** Rejected (or retracted) by someone other than the curator: spam rejected lowers the score. */
  rejectedCount: z.number().int(),
  /** Posts taken back after they were published. */
  retractedCount: z.number().int(),
  /** approved / (approved + rejected), 0–100, whole; 0 without decisions. */
  approvalRate: z.number().int(),
  /** The Wilson lower bound (95 %) of that rate, 0–1: what the ranking by score orders by. */
  score: z.number(),
});
export type CuratorReputation = z.infer<typeof curatorReputationSchema>;

/** An approver's record in a scope: decisions that count, those overturned, the median time to decide. */
export const approverReputationSchema = z.object({
  moderatorAccountId: z.string(),
  decisionCount: z.number().int(),
  /** Approvals later retracted. */
  overturnedCount: z.number().int(),
  /** Median seconds from submission to this approver's decision; null before the first recomputation. */
  medianDecisionSeconds: z.number().int().nullable(),
  /** When the medians were last recomputed (they are, on a schedule); null if never. */
  medianAsOf: z.string().nullable(),
});
export type ApproverReputation = z.infer<typeof approverReputationSchema>;

/** GET /api/reputation/approvers. */
export const approverReputationQuerySchema = z.object({
  feedId: z.string().trim().max(64).optional(),
  ...pageQuery,
});

export const approverReputationPageSchema = z.object({
  items: z.array(approverReputationSchema),
  pagination: paginationSchema,
});

/** GET /api/feeds/{feedId}/queue: how long the feed's queue waits. */
export const queueHealthSchema = z.object({
  feedId: z.string(),
  pendingCount: z.number().int(),
  /** When the oldest pending post was submitted, and which it is; null with an empty queue. */
  oldestPendingAt: z.string().nullable(),
  oldestPendingSubmissionId: z.string().nullable(),
  /** Median seconds to a decision over the recent window; null without decisions or before the first run. */
  medianDecisionSeconds: z.number().int().nullable(),
  decisionsSampled: z.number().int(),
  medianAsOf: z.string().nullable(),
  /** The feed's service level, in hours; null when it sets none. */
  decideWithinHours: z.number().int().nullable(),
  /** Pending posts older than the service level (counted up to OVERDUE_COUNT_CAP); 0 without one. */
  overdueCount: z.number().int(),
});
export type QueueHealth = z.infer<typeof queueHealthSchema>;

/** GET and PUT /api/feeds/{feedId}/reminders: the session's approver and this feed's queue reminders. */
export const reminderSettingsSchema = z.object({
  feedId: z.string(),
  subscribed: z.boolean(),
  telegram: z.boolean(),
  /** Telegram copies need a linked Telegram account (`!link` to the bot from Telegram). */
  telegramAvailable: z.boolean(),
  decideWithinHours: z.number().int().nullable(),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

export const reminderSettingsUpdateSchema = z.strictObject({
  subscribed: z.boolean("subscribed must be true or false"),
  telegram: z.boolean("telegram must be true or false").default(false),
});
export type ReminderSettingsUpdate = z.infer<typeof reminderSettingsUpdateSchema>;

/** One in-app reminder: a feed's oldest post waited past its service level. */
export const queueReminderSchema = z.object({
  id: z.number().int(),
  feedId: z.string(),
  submissionId: z.string(),
  waitingSince: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  telegramStatus: z.enum(["sent", "failed"]).nullable(),
});
export type QueueReminder = z.infer<typeof queueReminderSchema>;

/** GET /api/reminders. */
export const reminderListQuerySchema = z.object({
  ...pageQuery,
});

export const queueReminderPageSchema = z.object({
  items: z.array(queueReminderSchema),
  pagination: paginationSchema,
  /** The session's unread reminders over every page. */
  unreadCount: z.number().int(),
});
