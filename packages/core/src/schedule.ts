import { z } from "zod";
import { pageQuery, pageSizeQuery, paginationSchema } from "./envelope.ts";
import { SCHEDULE_LIMITS } from "./schedule-rules.ts";

/**
 * The Scheduled view (decision 0036): per scheduled channel of a feed, what goes out when, in order; and the
 * moderator's actions on one waiting item (move, publish now, remove).
 */

/** A scheduled channel of the feed, by its branch key (destinations.ts `branchKeys`). */
export const scheduledChannelSchema = z.object({
  channelKey: z.string(),
  pluginName: z.string(),
  /** "Telegram", "RSS". */
  label: z.string(),
  /** "Daily at 09:00, 13:00 (Europe/Berlin)", "At most 4 per day, spread evenly", or "At once" (no longer scheduled). */
  schedule: z.string(),
  waiting: z.number().int(),
});
export type ScheduledChannel = z.infer<typeof scheduledChannelSchema>;

export const scheduledChannelListSchema = z.object({ channels: z.array(scheduledChannelSchema) });

export const scheduledSendSchema = z.object({
  id: z.string(),
  channelKey: z.string(),
  /** 1-based place in the channel's line. */
  position: z.number().int(),
  submissionId: z.string(),
  jobId: z.string(),
  /** The post's text, shortened. */
  content: z.string(),
  username: z.string(),
  /** When it goes out (ISO). */
  plannedAt: z.string(),
  /** A moderator asked for it to go at once: it is on its way. */
  publishNow: z.boolean(),
});
export type ScheduledSend = z.infer<typeof scheduledSendSchema>;

export const scheduledSendsQuerySchema = z.object({
  channelKey: z.string().min(1, "channelKey is required").max(300, "channelKey is at most 300 characters"),
  page: pageQuery.page,
  limit: pageSizeQuery(SCHEDULE_LIMITS.pageSize),
});
export type ScheduledSendsQuery = z.infer<typeof scheduledSendsQuerySchema>;

export const scheduledSendPageSchema = z.object({
  items: z.array(scheduledSendSchema),
  pagination: paginationSchema,
});
export type ScheduledSendPage = z.infer<typeof scheduledSendPageSchema>;

export const scheduledSendParamsSchema = z.object({
  feedId: z.string().min(1).max(64),
  sendId: z.uuid("Not a scheduled item's id"),
});

/** Moves an item to a new 1-based place in its channel's line; the line is re-planned. */
export const moveScheduledSendSchema = z.object({
  position: z
    .number("position must be a whole number of 1 or more")
    .int("position must be a whole number of 1 or more")
    .min(1, "position must be a whole number of 1 or more")
    .max(SCHEDULE_LIMITS.waitingPerChannel, `position must be at most ${SCHEDULE_LIMITS.waitingPerChannel}`),
});

export const scheduleChangeAnswerSchema = z.object({
  /** Items whose planned time changed. */
  replanned: z.number().int(),
});
export type ScheduleChangeAnswer = z.infer<typeof scheduleChangeAnswerSchema>;
