/**
 * A publishing schedule per channel (decision 0036): a stream distributor publishes at once (the default), in daily
 * slots (HH:MM in the schedule's IANA timezone) or at most N per hour or day, spread evenly. Pure and free of zod:
 * the server plans sends with it, the editor and the Scheduled tab read it. Time is always passed in, never read.
 */
import { isValidTimezone } from "./recap-rules.ts";

export const SCHEDULE_MODES = ["immediate", "slots", "rate"] as const;
export type ScheduleMode = (typeof SCHEDULE_MODES)[number];
export const RATE_PERIODS = ["hour", "day"] as const;
export type RatePeriod = (typeof RATE_PERIODS)[number];

export const SCHEDULE_LIMITS = {
  /** Daily slots one channel may have. */
  slots: 24,
  /** At most this many sends per period. */
  maxRate: 1440,
  /** Items the Scheduled tab lists per page, and the most a single channel may hold waiting. */
  pageSize: 100,
  waitingPerChannel: 10_000,
  /** Items a schedule change re-plans at once (the rest keep their place and are re-planned when reached). */
  replanBatch: 2000,
} as const;

export const DEFAULT_SCHEDULE_TIMEZONE = "UTC";
export const SLOT_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const SLOT_MESSAGE = "A slot is a time of day as HH:MM (00:00 to 23:59)";

export interface ChannelSchedule {
  mode: ScheduleMode;
  /** `slots`: times of day, HH:MM. */
  slots?: string[];
  /** `slots`: the IANA timezone the slots are read in (UTC if unset). */
  timezone?: string;
  /** `rate`: at most `count` sends per `per`. */
  count?: number;
  per?: RatePeriod;
}

/** Whether a channel waits for a schedule at all (an absent or unreadable schedule publishes at once). */
export function isScheduled(schedule: ChannelSchedule | null | undefined): schedule is ChannelSchedule {
  if (!schedule || typeof schedule !== "object") return false;
  if (schedule.mode === "slots") return Array.isArray(schedule.slots) && schedule.slots.length > 0;
  if (schedule.mode === "rate") return typeof schedule.count === "number" && schedule.count > 0;
  return false;
}

/** The schedule of a config entry (a distributor's `schedule`), when it is one this module can read. */
export function scheduleOf(entry: unknown): ChannelSchedule | null {
  if (!entry || typeof entry !== "object") return null;
  const schedule = (entry as { schedule?: unknown }).schedule;
  if (!schedule || typeof schedule !== "object") return null;
  const candidate = schedule as ChannelSchedule;
  return isScheduled(candidate) ? candidate : null;
}

/** Two schedules plan the same times (so a config save that keeps them re-plans nothing). */
export function sameSchedule(a: ChannelSchedule | null, b: ChannelSchedule | null): boolean {
  const norm = (s: ChannelSchedule | null) =>
    s && isScheduled(s)
      ? s.mode === "slots"
        ? `slots|${timezoneOf(s)}|${[...new Set(s.slots)].sort().join(",")}`
        : `rate|${s.count}|${s.per ?? "hour"}`
      : "immediate";
  return norm(a) === norm(b);
}

const timezoneOf = (schedule: ChannelSchedule) =>
  schedule.timezone && isValidTimezone(schedule.timezone) ? schedule.timezone : DEFAULT_SCHEDULE_TIMEZONE;

/** "09:00, 13:00 (Europe/Berlin)", "At most 4 per day", "At once". */
export function describeChannelSchedule(schedule: ChannelSchedule | null | undefined): string {
  if (!isScheduled(schedule)) return "At once";
  if (schedule.mode === "slots") {
    return `Daily at ${[...new Set(schedule.slots)].sort().join(", ")} (${timezoneOf(schedule)})`;
  }
  return `At most ${schedule.count} per ${schedule.per ?? "hour"}, spread evenly`;
}

/** What a save tells about its re-planned schedule: "2 scheduled items were re-planned.", or "" for none. */
export function replannedMessage(count: number): string {
  if (count <= 0) return "";
  return count === 1 ? "1 scheduled item was re-planned." : `${count} scheduled items were re-planned.`;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** The wall clock in `timezone` at an instant, read as if it were UTC (so differences are the zone's offset). */
function wallClock(instant: number, timezone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

const offsetAt = (instant: number, timezone: string) => wallClock(instant, timezone) - instant;

/**
 * The instant a wall-clock time (given as if UTC) happens in `timezone`. In an overlap (clocks turned back) the
 * time happens twice: the first is taken, so a slot runs once. In a gap (clocks turned forward) it never happens:
 * the next valid time is taken, the moment the gap ends.
 */
export function zonedInstant(wall: number, timezone: string): number {
  // Offsets change at most once within a day here: the ones a day either side bound every candidate.
  const offsets = [...new Set([offsetAt(wall - DAY, timezone), offsetAt(wall + DAY, timezone)])];
  const matches = offsets
    .map((offset) => wall - offset)
    .filter((instant) => wallClock(instant, timezone) === wall)
    .sort((a, b) => a - b);
  if (matches.length > 0) return matches[0];
  // A gap: the clocks jump over `wall`. Between the two readings lies the change; find its first minute.
  let low = wall - Math.max(...offsets);
  let high = wall - Math.min(...offsets);
  while (high - low > MINUTE) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
    if (wallClock(middle, timezone) >= wall) high = middle;
    else low = middle;
  }
  return wallClock(low, timezone) >= wall ? low : high;
}

/** The slot instants of the local days around `from`, in order, each instant once. */
function slotInstantsAfter(schedule: ChannelSchedule, from: number, count: number): number[] {
  const timezone = timezoneOf(schedule);
  const minutes = [...new Set((schedule.slots ?? []).filter((slot) => SLOT_PATTERN.test(slot)))]
    .map((slot) => Number(slot.slice(0, 2)) * 60 + Number(slot.slice(3, 5)))
    .sort((a, b) => a - b);
  if (minutes.length === 0) return [];
  const out: number[] = [];
  const localToday = wallClock(from, timezone);
  let day = Date.UTC(
    new Date(localToday).getUTCFullYear(),
    new Date(localToday).getUTCMonth(),
    new Date(localToday).getUTCDate() - 1,
  );
  let last = -Infinity;
  // Bounded: each day adds at least one instant unless every slot of it fell before `from`.
  for (let guard = 0; out.length < count && guard < count + 3; guard++, day += DAY) {
    for (const minute of minutes) {
      const instant = zonedInstant(day + minute * MINUTE, timezone);
      // A gap slot moved onto the next slot (or a later day's) is the same send: once.
      if (instant > from && instant > last) {
        out.push(instant);
        last = instant;
        if (out.length === count) break;
      }
    }
  }
  return out;
}

export interface PlanSendTimesInput {
  /** Now: no send is planned before it. */
  from: number;
  /** How many waiting items get a time, in their order. */
  count: number;
  /** When the channel last took a slot (a send started), if ever: the next slot comes after it. */
  lastTakenAt?: number | null;
}

/**
 * The planned times of a channel's next `count` sends, in order (epoch milliseconds). Slots: the next daily slot
 * instants strictly after both `from` and the last taken slot. Rate: one interval (the period divided by N) after
 * the last send, and one interval apart after that; the first may go at once when the channel has been quiet.
 */
export function planSendTimes(schedule: ChannelSchedule, input: PlanSendTimesInput): number[] {
  const count = Math.max(0, Math.min(Math.floor(input.count), SCHEDULE_LIMITS.waitingPerChannel));
  if (count === 0 || !isScheduled(schedule)) return [];
  const last = input.lastTakenAt ?? null;
  if (schedule.mode === "slots") {
    return slotInstantsAfter(schedule, Math.max(input.from, last ?? -Infinity), count);
  }
  const period = (schedule.per === "day" ? 24 * 60 : 60) * MINUTE;
  const interval = Math.ceil(period / Math.min(schedule.count ?? 1, SCHEDULE_LIMITS.maxRate));
  const first = last === null ? input.from : Math.max(input.from, last + interval);
  return Array.from({ length: count }, (_, index) => first + index * interval);
}
