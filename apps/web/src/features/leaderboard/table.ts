import { approvalRate, type LeaderboardEntry, splitHandleKey } from "@curate/core";

/** Feed rows shown per curator before the row is expanded. */
export const COLLAPSED_FEED_ROWS = 2;

export interface FeedShare {
  feedId: string;
  count: number;
  totalInFeed: number;
}

export interface LeaderboardRow {
  /** Position in the server's order (submissions, then approvals); sorting and searching never change it. */
  rank: number;
  entry: LeaderboardEntry;
  approvalRate: number;
  /** The reputation score (0–1; decision 0030): 0 without decisions by others. */
  score: number;
  /** The curator's feeds, most submissions first. */
  feeds: FeedShare[];
}

export function toRows(entries: readonly LeaderboardEntry[]): LeaderboardRow[] {
  return entries.map((entry, index) => ({
    rank: index + 1,
    entry,
    approvalRate: approvalRate(entry.approvalCount, entry.submissionCount),
    score: entry.reputation?.score ?? 0,
    feeds: [...entry.feedSubmissions].sort((a, b) => b.count - a.count || a.feedId.localeCompare(b.feedId)),
  }));
}

export type SortKey = "rank" | "username" | "approvalRate" | "score" | "submissions" | "topFeeds";
/** The values of `aria-sort`, so the state can be handed to the header as it is. */
export type SortDirection = "ascending" | "descending";

export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

/** The server's order. */
export const DEFAULT_SORT: SortState = { key: "rank", direction: "ascending" };

// Counts are most interesting biggest first; rank and names read naturally from the top.
const FIRST_DIRECTION: Record<SortKey, SortDirection> = {
  rank: "ascending",
  username: "ascending",
  approvalRate: "descending",
  score: "descending",
  submissions: "descending",
  topFeeds: "descending",
};

/** Choosing the sorted column again reverses it; another column starts in its natural direction. */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key) {
    return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
  }
  return { key, direction: FIRST_DIRECTION[key] };
}

export function ariaSort(sort: SortState, key: SortKey): SortDirection | "none" {
  return sort.key === key ? sort.direction : "none";
}

const compareUsernames = new Intl.Collator(undefined, { sensitivity: "base", numeric: true }).compare;

const comparators: Record<SortKey, (a: LeaderboardRow, b: LeaderboardRow) => number> = {
  rank: (a, b) => a.rank - b.rank,
  // By the handle as shown, so `bluesky:zoe` sorts under z, not b.
  username: (a, b) =>
    compareUsernames(
      splitHandleKey(a.entry.curatorUsername).handle,
      splitHandleKey(b.entry.curatorUsername).handle,
    ),
  approvalRate: (a, b) => a.approvalRate - b.approvalRate,
  score: (a, b) => a.score - b.score,
  submissions: (a, b) => a.entry.submissionCount - b.entry.submissionCount,
  // Breadth: how many feeds the curator submits to (the Submissions column already covers volume).
  topFeeds: (a, b) => a.feeds.length - b.feeds.length,
};

/** A sorted copy; equal values keep rank order whichever the direction, so ties read top-ranked first. */
export function sortRows(rows: readonly LeaderboardRow[], sort: SortState): LeaderboardRow[] {
  const sign = sort.direction === "ascending" ? 1 : -1;
  const compare = comparators[sort.key];
  return [...rows].sort((a, b) => sign * compare(a, b) || a.rank - b.rank);
}

/**
 * Rows any of whose curator's handles, or any of whose feed ids or names, contains the query (case-insensitive; a
 * leading @ or # is ignored, so "@alice" and "#ai" work as typed). An empty query keeps every row.
 */
export function filterRows(
  rows: readonly LeaderboardRow[],
  query: string,
  feedNames: ReadonlyMap<string, string>,
): LeaderboardRow[] {
  const needle = query.trim().replace(/^[@#]/, "").toLowerCase();
  if (!needle) return [...rows];
  return rows.filter(
    (row) =>
      handlesOf(row.entry).some((handle) => handle.toLowerCase().includes(needle)) ||
      row.feeds.some(
        (feed) =>
          feed.feedId.toLowerCase().includes(needle) ||
          (feedNames.get(feed.feedId)?.toLowerCase().includes(needle) ?? false),
      ),
  );
}

/** Every handle an entry counts: an account that linked several is one entry under its strongest handle. */
export function handlesOf(entry: LeaderboardEntry): string[] {
  return [
    entry.curatorUsername,
    ...(entry.handles ?? []).filter((handle) => handle !== entry.curatorUsername),
  ];
}

/** Rows with feed rows hidden while collapsed: the ones Expand All opens. */
export function expandableIds(rows: readonly LeaderboardRow[]): string[] {
  return rows.filter((row) => row.feeds.length > COLLAPSED_FEED_ROWS).map((row) => row.entry.curatorId);
}
