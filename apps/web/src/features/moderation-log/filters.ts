import { LOG_ACTIONS, type LogAction, PLATFORMS, type Platform } from "@curate/core";

/** The log tab's filters, kept in the address so a filtered view can be shared. */
export interface LogFilters {
  action?: LogAction;
  /** A NEAR account or a handle, with or without "@". */
  moderator?: string;
  network?: Platform;
  /** UTC days (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: unknown): value is string =>
  typeof value === "string" && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** The filters an address names; anything the API would refuse is left out rather than shown as an error. */
export function parseLogSearch(search: Record<string, unknown>): LogFilters {
  const filters: LogFilters = {};
  if ((LOG_ACTIONS as readonly unknown[]).includes(search.action))
    filters.action = search.action as LogAction;
  if (typeof search.moderator === "string" && search.moderator.trim()) {
    filters.moderator = search.moderator.trim().slice(0, 200);
  }
  if ((PLATFORMS as readonly unknown[]).includes(search.network))
    filters.network = search.network as Platform;
  if (isDay(search.from)) filters.from = search.from;
  if (isDay(search.to)) filters.to = search.to;
  // A range given backwards means the same days.
  if (filters.from && filters.to && filters.from > filters.to)
    [filters.from, filters.to] = [filters.to, filters.from];
  return filters;
}

export const hasLogFilters = (filters: LogFilters) => Object.values(filters).some(Boolean);
