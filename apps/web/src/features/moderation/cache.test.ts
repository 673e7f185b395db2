import { curatorFields, type Paged, type Submission, type SubmissionFeed } from "@curate/core";
import { describe, expect, it } from "vitest";
import { submissionKeys } from "#web/features/submissions/api";
import { applyFeedStatus, listScope, type SubmissionPages, withFeedStatus } from "./cache";

const link = (feedId: string, status: SubmissionFeed["status"]): SubmissionFeed => ({
  submissionId: "1",
  feedId,
  feedName: feedId,
  status,
  curatorId: "1",
  curatorUsername: "curator",
  ...curatorFields("curator"),
  curatorNotes: null,
  submittedAt: "2026-01-01T00:00:00.000Z",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

const submission = (tweetId: string, feeds: SubmissionFeed[], status = feeds[0].status): Submission => ({
  tweetId,
  platform: "twitter",
  userId: "9",
  username: "author",
  authorDisplayName: null,
  url: null,
  media: null,
  authorProfileImage: null,
  content: "A post",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  curatorId: "1",
  curatorUsername: "curator",
  ...curatorFields("curator"),
  curatorNotes: null,
  curatorTweetId: null,
  submittedAt: "2026-01-01T00:00:00.000Z",
  status,
  feeds,
  moderationHistory: [],
});

const pages = (...lists: Submission[][]): SubmissionPages => ({
  pageParams: lists.map((_, index) => index),
  pages: lists.map(
    (items, page): Paged<Submission> => ({
      items,
      pagination: { page, limit: 20, hasNextPage: page < lists.length - 1, totalCount: 99 },
    }),
  ),
});

const filters = { status: "all", sortOrder: "newest", platform: "all" } as const;

describe("listScope", () => {
  it("finds the feed of a per-feed list and none for Explore's lists", () => {
    expect(listScope(submissionKeys.feedList("near", filters))).toBe("near");
    expect(listScope(submissionKeys.list(filters))).toBeUndefined();
    expect(listScope(submissionKeys.lists())).toBeUndefined();
  });
});

describe("withFeedStatus", () => {
  const twoFeeds = submission("1", [link("near", "pending"), link("desci", "pending")], "pending");
  const approveInNear = { submissionId: "1", feedId: "near", status: "approved" } as const;

  it("changes the link's status and, in that feed's list, the item's status", () => {
    const next = withFeedStatus(twoFeeds, approveInNear, "near");
    expect(next.status).toBe("approved");
    expect(next.feeds.map((feed) => feed.status)).toEqual(["approved", "pending"]);
    expect(twoFeeds.feeds[0].status).toBe("pending");
  });

  it("keeps the item's status in another feed's list, where it is that feed's own", () => {
    expect(withFeedStatus(twoFeeds, approveInNear, "desci").status).toBe("pending");
  });

  it("derives the overall status on Explore: approved anywhere wins, pending while any feed is undecided", () => {
    expect(withFeedStatus(twoFeeds, approveInNear, undefined).status).toBe("approved");
    const rejectInNear = { ...approveInNear, status: "rejected" } as const;
    expect(withFeedStatus(twoFeeds, rejectInNear, undefined).status).toBe("pending");
    const onlyNear = submission("1", [link("near", "pending")]);
    expect(withFeedStatus(onlyNear, rejectInNear, undefined).status).toBe("rejected");
  });

  it("leaves other submissions alone", () => {
    const other = submission("2", [link("near", "pending")]);
    expect(withFeedStatus(other, approveInNear, "near")).toBe(other);
  });
});

describe("applyFeedStatus (optimistic update and roll-back)", () => {
  const target = submission("7", [link("near", "pending")]);
  const neighbour = submission("8", [link("near", "pending")]);
  const data = pages([neighbour], [target]);

  it("updates the page holding the submission and shares the untouched pages", () => {
    const next = applyFeedStatus(data, { submissionId: "7", feedId: "near", status: "rejected" }, "near");
    expect(next?.pages[1].items[0].status).toBe("rejected");
    expect(next?.pages[0]).toBe(data.pages[0]);
    expect(next?.pageParams).toBe(data.pageParams);
  });

  it("rolls one decision back without undoing another still in flight", () => {
    const both = applyFeedStatus(
      applyFeedStatus(data, { submissionId: "7", feedId: "near", status: "approved" }, "near"),
      { submissionId: "8", feedId: "near", status: "approved" },
      "near",
    );
    const rolledBack = applyFeedStatus(
      both,
      { submissionId: "7", feedId: "near", status: "pending" },
      "near",
    );
    expect(rolledBack?.pages[1].items[0].status).toBe("pending");
    expect(rolledBack?.pages[0].items[0].status).toBe("approved");
  });

  it("returns the same object for lists without the submission, and nothing for an empty cache", () => {
    expect(applyFeedStatus(data, { submissionId: "404", feedId: "near", status: "approved" }, "near")).toBe(
      data,
    );
    expect(
      applyFeedStatus(undefined, { submissionId: "7", feedId: "near", status: "approved" }, "near"),
    ).toBe(undefined);
  });
});
