import type { FeedSummary } from "@curate/core";

export const MY_FEEDS_FILTERS = [
  { value: "all", label: "All" },
  { value: "completed", label: "Completed" },
  { value: "incomplete", label: "Setup incomplete" },
] as const;

export type MyFeedsFilter = (typeof MY_FEEDS_FILTERS)[number]["value"];

/** The search matches name, id and description, case-insensitively; the filter splits on setup completeness. */
export function filterMyFeeds(
  feeds: readonly FeedSummary[],
  search: string,
  filter: MyFeedsFilter,
): FeedSummary[] {
  const needle = search.trim().toLowerCase();
  return feeds.filter((feed) => {
    if (filter !== "all" && feed.complete !== (filter === "completed")) return false;
    if (!needle) return true;
    return [feed.name, feed.id, feed.description ?? ""].some((text) => text.toLowerCase().includes(needle));
  });
}
