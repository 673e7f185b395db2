import { PLATFORMS, type Platform } from "./platforms.ts";
import {
  MAX_SEARCH_LENGTH,
  SORT_ORDERS,
  type SortOrder,
  STATUS_FILTERS,
  type StatusFilter,
} from "./submission-rules.ts";

/** Search parameters of list pages (Explore, feed curation). */
export interface ListSearch {
  status?: StatusFilter;
  sortOrder?: SortOrder;
  q?: string;
  /** Only posts from one network. */
  platform?: Platform;
}

const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  typeof value === "string" && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/**
 * Reads list-page search parameters; anything outside the enums (or an over-long or blank query) falls back
 * to the default instead of failing the page. Plain code rather than a schema: it runs on every page load.
 */
export function parseListSearch(input: Record<string, unknown>): ListSearch {
  const q =
    typeof input.q === "string" && input.q.trim() && input.q.length <= MAX_SEARCH_LENGTH
      ? input.q
      : undefined;
  return {
    status: oneOf(STATUS_FILTERS, input.status),
    sortOrder: oneOf(SORT_ORDERS, input.sortOrder),
    q,
    platform: oneOf(PLATFORMS, input.platform),
  };
}

/** The same, in the shape route validators and tests expect (`parse`). */
export const listSearchSchema = { parse: parseListSearch };
