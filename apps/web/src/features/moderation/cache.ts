import { overallStatus, type Paged, type Submission, type SubmissionStatus } from "@curate/core";
import type { InfiniteData, QueryKey } from "@tanstack/react-query";

export type SubmissionPages = InfiniteData<Paged<Submission>>;

/** A status change of one submission in one feed, as a moderator's decision (or its undoing) makes it. */
export interface FeedStatusChange {
  submissionId: string;
  feedId: string;
  status: SubmissionStatus;
}

/**
 * The feed a cached submission list is scoped to: per-feed lists carry `feedId` in the filters part of their
 * key (see submissionKeys.feedList); Explore's lists have none.
 */
export function listScope(queryKey: QueryKey): string | undefined {
  const filters = queryKey[2];
  if (typeof filters !== "object" || filters === null) return undefined;
  const feedId = (filters as { feedId?: unknown }).feedId;
  return typeof feedId === "string" ? feedId : undefined;
}

/**
 * The submission as it reads after the change. Its `feeds[]` entry for that feed takes the new status; the top-level
 * status is the link's own in a list of that feed, stays as it was in a list of another feed, and on Explore follows
 * the per-feed statuses by the same rule the server uses.
 */
export function withFeedStatus(
  submission: Submission,
  change: FeedStatusChange,
  scopeFeedId: string | undefined,
): Submission {
  if (submission.tweetId !== change.submissionId) return submission;
  const feeds = submission.feeds.map((feed) =>
    feed.feedId === change.feedId ? { ...feed, status: change.status } : feed,
  );
  let status = submission.status;
  if (scopeFeedId === undefined) status = overallStatus(feeds.map((feed) => feed.status));
  else if (scopeFeedId === change.feedId) status = change.status;
  return { ...submission, feeds, status };
}

/**
 * Applies the change to every page of one cached list. Lists that do not hold the submission come back as the same
 * object, so their observers do not re-render.
 */
export function applyFeedStatus(
  data: SubmissionPages | undefined,
  change: FeedStatusChange,
  scopeFeedId: string | undefined,
): SubmissionPages | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.items.some((item) => item.tweetId === change.submissionId)) return page;
    changed = true;
    return { ...page, items: page.items.map((item) => withFeedStatus(item, change, scopeFeedId)) };
  });
  return changed ? { ...data, pages } : data;
}
