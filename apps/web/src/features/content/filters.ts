import { isRssPlatform, type RssPlatform } from "@curate/core";
import type { RssItem } from "#web/features/feeds/rss";

/** The content tab's filters (platform, category, sort), kept in the address so a filtered view can be shared. */
export const CONTENT_SORTS = ["newest", "oldest"] as const;
export type ContentSort = (typeof CONTENT_SORTS)[number];

export interface ContentFilters {
  sort: ContentSort;
  platform: "all" | RssPlatform;
  /** "" for every category. */
  category: string;
}

export const DEFAULT_CONTENT_FILTERS: ContentFilters = { sort: "newest", platform: "all", category: "" };

export const SORT_LABELS: Record<ContentSort, string> = { newest: "Most Recent", oldest: "Oldest First" };

const MAX_CATEGORY = 100;

/** The address's search params as filters: anything unknown or oversized falls back to the default. */
export function parseContentSearch(search: Record<string, unknown>): Partial<ContentFilters> {
  const result: Partial<ContentFilters> = {};
  if (search.sort === "oldest") result.sort = "oldest";
  if (isRssPlatform(search.platform)) result.platform = search.platform;
  if (
    typeof search.category === "string" &&
    search.category.trim() &&
    search.category.length <= MAX_CATEGORY
  ) {
    result.category = search.category;
  }
  return result;
}

export const withDefaults = (search: Partial<ContentFilters>): ContentFilters => ({
  ...DEFAULT_CONTENT_FILTERS,
  ...search,
});

export const sameFilters = (a: ContentFilters, b: ContentFilters) =>
  a.sort === b.sort && a.platform === b.platform && a.category === b.category;

/** Filters as search params: defaults are left out, so the plain tab has a plain address. */
export function toContentSearch(filters: ContentFilters): Partial<ContentFilters> {
  const search: Partial<ContentFilters> = {};
  if (filters.sort !== DEFAULT_CONTENT_FILTERS.sort) search.sort = filters.sort;
  if (filters.platform !== "all") search.platform = filters.platform;
  if (filters.category) search.category = filters.category;
  return search;
}

/** The categories the items carry, each once (case-insensitively), in alphabetical order. */
export function categoriesOf(items: readonly RssItem[]): string[] {
  const byKey = new Map<string, string>();
  for (const item of items) {
    for (const category of item.categories) {
      const key = category.toLowerCase();
      if (!byKey.has(key)) byKey.set(key, category);
    }
  }
  return [...byKey.values()].sort((a, b) => a.localeCompare(b));
}

const timeOf = (item: RssItem) => {
  const time = item.pubDate ? Date.parse(item.pubDate) : Number.NaN;
  return Number.isNaN(time) ? null : time;
};

/** The items the filters let through, in the chosen order; undated items go last either way. */
export function filterContent(items: readonly RssItem[], filters: ContentFilters): RssItem[] {
  const category = filters.category.toLowerCase();
  const kept = items.filter(
    (item) =>
      (filters.platform === "all" || item.platform === filters.platform) &&
      (!category || item.categories.some((name) => name.toLowerCase() === category)),
  );
  const direction = filters.sort === "newest" ? -1 : 1;
  return kept
    .map((item, index) => ({ item, index, time: timeOf(item) }))
    .sort((a, b) => {
      if (a.time === null || b.time === null) {
        return a.time === b.time ? a.index - b.index : a.time === null ? 1 : -1;
      }
      return a.time === b.time ? a.index - b.index : (a.time - b.time) * direction;
    })
    .map(({ item }) => item);
}

export interface FilterChip {
  key: keyof ContentFilters;
  label: string;
}

/** One removable chip per filter that differs from its default. */
export function activeChips(filters: ContentFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.sort !== DEFAULT_CONTENT_FILTERS.sort) {
    chips.push({ key: "sort", label: `Sort: ${SORT_LABELS[filters.sort]}` });
  }
  if (filters.platform !== "all") chips.push({ key: "platform", label: `Platform: ${filters.platform}` });
  if (filters.category) chips.push({ key: "category", label: `Category: ${filters.category}` });
  return chips;
}

/** The filters without one of them (a chip's remove button). */
export const withoutFilter = (filters: ContentFilters, key: keyof ContentFilters): ContentFilters => ({
  ...filters,
  [key]: DEFAULT_CONTENT_FILTERS[key],
});
