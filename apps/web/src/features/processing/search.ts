/**
 * The processing tab's search parameters: `failures=recent` (the failed-jobs badge's link) shows only submissions
 * with a failed or partly failed job in the last 24 hours. Free of zod: route search validators ship in the app's
 * entry, which every first visit to "/" downloads.
 */
export interface ProcessingSearch {
  failures?: "recent";
}

export function validateProcessingSearch(search: Record<string, unknown>): ProcessingSearch {
  return search.failures === "recent" ? { failures: "recent" } : {};
}
