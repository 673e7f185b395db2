import { type Feed, isFeedComplete } from "@curate/core";

/** Curators of a feed: the approver handles its config names, over every platform. */
export function curatorCount(feed: Feed): number {
  const approvers = feed.config.moderation?.approvers ?? {};
  return Object.values(approvers).reduce((total, handles) => total + handles.length, 0);
}

export const MY_FEEDS_FILTERS = [
  { value: "all", label: "All" },
  { value: "completed", label: "Completed" },
  { value: "incomplete", label: "Setup incomplete" },
] as const;

export type MyFeedsFilter = (typeof MY_FEEDS_FILTERS)[number]["value"];

/** The search matches name, id and description, case-insensitively; the filter splits on setup completeness. */
export function filterMyFeeds(feeds: readonly Feed[], search: string, filter: MyFeedsFilter): Feed[] {
  const needle = search.trim().toLowerCase();
  return feeds.filter((feed) => {
    if (filter !== "all" && isFeedComplete(feed.config) !== (filter === "completed")) return false;
    if (!needle) return true;
    return [feed.name, feed.id, feed.description ?? ""].some((text) => text.toLowerCase().includes(needle));
  });
}
