/**
 * Recaps (recap outputs, accepting a single item or a list): scheduled digests of a feed's approved
 * items. Pure rules shared by the server's scheduler and the edit page: validating a schedule (standard five-part
 * cron) and a timezone (IANA), reading a schedule as words, and the run times it makes. Free of zod.
 */
import { Cron } from "croner";
import cronstrue from "cronstrue";

export const RECAP_LIMITS = {
  idLength: 64,
  nameLength: 100,
  scheduleLength: 100,
  timezoneLength: 64,
  /** Items one recap run gathers at most (the earliest approvals of the period first). */
  itemsPerRun: 200,
  /** A recap runs at most this often. */
  minIntervalMinutes: 60,
} as const;

export const RECAP_ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
export const DEFAULT_RECAP_TIMEZONE = "UTC";

/** A recap as the feed config holds it (the zod contract is `recapSchema` in feeds.ts). */
export interface RecapConfig {
  id?: string;
  name?: string;
  enabled?: boolean;
  schedule?: string;
  timezone?: string;
  transform?: Array<{ plugin: string; config?: Record<string, unknown> }>;
  batchTransform?: Array<{ plugin: string; config?: Record<string, unknown> }>;
  distribute?: Array<{
    plugin: string;
    config?: Record<string, unknown>;
    transform?: Array<{ plugin: string; config?: Record<string, unknown> }>;
  }>;
}

/** `outputs.recap` is one recap or a list of them: always a list here. */
export function recapList(value: unknown): RecapConfig[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is RecapConfig => item !== null && typeof item === "object");
}

/** Whether the runtime knows this IANA timezone (`Europe/Berlin`, `UTC`). */
export function isValidTimezone(timezone: string): boolean {
  if (!timezone || timezone.length > RECAP_LIMITS.timezoneLength) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

export const TIMEZONE_MESSAGE = "Unknown timezone: use an IANA name such as UTC or Europe/Berlin";

function cronOf(schedule: string, timezone?: string): Cron {
  return new Cron(schedule.trim(), {
    mode: "5-part",
    paused: true,
    timezone: timezone && isValidTimezone(timezone) ? timezone : DEFAULT_RECAP_TIMEZONE,
  });
}

/**
 * Why a schedule cannot be used, or null when it can: five cron fields (minute hour day-of-month month
 * day-of-week, or a nickname such as `@weekly`), that run at all and at most once an hour.
 */
export function scheduleProblem(schedule: string): string | null {
  const trimmed = schedule.trim();
  if (!trimmed) return "A schedule is required (a cron expression such as 0 9 * * 1)";
  if (trimmed.length > RECAP_LIMITS.scheduleLength) {
    return `A schedule must be at most ${RECAP_LIMITS.scheduleLength} characters`;
  }
  let cron: Cron;
  try {
    cron = cronOf(trimmed);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, "") : "";
    return `Not a valid cron schedule (minute hour day-of-month month day-of-week)${reason ? `: ${reason}` : ""}`;
  }
  const runs = cron.nextRuns(25, new Date(Date.UTC(2026, 0, 1)));
  if (runs.length === 0) return "This schedule never runs";
  for (let i = 1; i < runs.length; i++) {
    if (runs[i].getTime() - runs[i - 1].getTime() < RECAP_LIMITS.minIntervalMinutes * 60_000) {
      return `A recap runs at most once every ${RECAP_LIMITS.minIntervalMinutes} minutes`;
    }
  }
  return null;
}

/** The schedule in words ("At 09:00, only on Monday"), or null when it is not a valid schedule. */
export function describeSchedule(schedule: string): string | null {
  if (scheduleProblem(schedule)) return null;
  try {
    return cronstrue.toString(schedule.trim(), { use24HourTimeFormat: true, verbose: false });
  } catch {
    return null;
  }
}

/** The next `count` run times after `from` (exclusive), in the recap's timezone; empty when invalid. */
export function nextRecapRuns(
  schedule: string,
  timezone: string | undefined,
  count: number,
  from = new Date(),
) {
  if (scheduleProblem(schedule) || (timezone && !isValidTimezone(timezone))) return [];
  return cronOf(schedule, timezone).nextRuns(count, from);
}

/** The latest run time at or before `at`, or null when the schedule has none (or is invalid). */
export function latestRecapRun(schedule: string, timezone: string | undefined, at: Date): Date | null {
  if (scheduleProblem(schedule) || (timezone && !isValidTimezone(timezone))) return null;
  const [run] = cronOf(schedule, timezone).previousRuns(1, new Date(at.getTime() + 1));
  return run ?? null;
}

/** A run time as people in the recap's timezone read it: "Mon, Nov 30, 2026, 09:00 (Europe/Berlin)". */
export function formatRunTime(date: Date, timezone: string | undefined): string {
  const zone = timezone && isValidTimezone(timezone) ? timezone : DEFAULT_RECAP_TIMEZONE;
  const text = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(date);
  return `${text} (${zone})`;
}
