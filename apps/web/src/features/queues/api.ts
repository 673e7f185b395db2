import {
  DEFAULT_PAGE_SIZE,
  type Paged,
  type QueueHealth,
  type QueueReminder,
  type ReminderSettings,
} from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const queueKeys = {
  all: ["queues"] as const,
  /** Public, like the feed it describes, so a server-rendered feed page embeds it (its own root: see ssr-state). */
  health: (feedId: string) => ["queue-health", feedId] as const,
  settings: (feedId: string, accountId: string | null) =>
    [...queueKeys.all, "reminder-settings", feedId, accountId] as const,
  reminders: (page: number) => [...queueKeys.all, "reminders", page] as const,
  allReminders: () => [...queueKeys.all, "reminders"] as const,
};

/** How often the queue's health is read again while shown: the oldest post's age grows by itself. */
export const QUEUE_HEALTH_REFRESH_MS = 60_000;

export const feedQueuePath = (feedId: string) => `/feeds/${encodeURIComponent(feedId)}/queue`;
export const reminderSettingsPath = (feedId: string) => `/feeds/${encodeURIComponent(feedId)}/reminders`;

export const queueHealthQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: queueKeys.health(feedId),
    queryFn: ({ signal }) => api<QueueHealth>(feedQueuePath(feedId), { signal }),
    refetchInterval: QUEUE_HEALTH_REFRESH_MS,
  });

/** The signed-in approver's reminder settings for a feed (the account keys it: another sign-in never reuses it). */
export const reminderSettingsQueryOptions = (feedId: string, accountId: string | null) =>
  queryOptions({
    queryKey: queueKeys.settings(feedId, accountId),
    queryFn: ({ signal }) => api<ReminderSettings>(reminderSettingsPath(feedId), { signal }),
    enabled: accountId !== null,
  });

export type ReminderPage = Paged<QueueReminder> & { unreadCount: number };

export const remindersQueryOptions = (page = 0) =>
  queryOptions({
    queryKey: queueKeys.reminders(page),
    queryFn: ({ signal }) =>
      api<ReminderPage>("/reminders", { query: { page, limit: DEFAULT_PAGE_SIZE }, signal }),
  });

export type QueueTone = "empty" | "ok" | "overdue" | "unknown";

/** How the queue reads at a glance: empty, within its service level, past it, or with no level set. */
export function queueTone(health: QueueHealth, now: number): QueueTone {
  if (!health.oldestPendingAt) return "empty";
  if (!health.decideWithinHours) return "unknown";
  const waited = now - Date.parse(health.oldestPendingAt);
  return waited > health.decideWithinHours * 3_600_000 ? "overdue" : "ok";
}

/** The oldest pending post's wait in seconds at `now`, or null with an empty queue. */
export function oldestWaitSeconds(health: QueueHealth, now: number): number | null {
  return health.oldestPendingAt ? Math.max(0, (now - Date.parse(health.oldestPendingAt)) / 1000) : null;
}
