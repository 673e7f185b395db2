import { listSearchSchema, type Paged, type Submission } from "@curate/core";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  feedSubmissionsInfiniteQueryOptions,
  mergeHead,
  type SubmissionFilters,
  submissionsHeadQueryOptions,
  submissionsInfiniteQueryOptions,
  toListSearch,
  toSubmissionFilters,
} from "./api";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("Explore search parameters", () => {
  it("turn into the list filters they name", () => {
    const search = listSearchSchema.parse({
      status: "approved",
      sortOrder: "oldest",
      q: "near",
      platform: "mastodon",
    });
    expect(toSubmissionFilters(search)).toEqual({
      status: "approved",
      sortOrder: "oldest",
      q: "near",
      platform: "mastodon",
    });
  });

  it("fall back to all, newest, every network and no search when the address holds unusable values", () => {
    const search = listSearchSchema.parse({ status: "bogus", sortOrder: 7, q: "   ", platform: "myspace" });
    expect(toSubmissionFilters(search)).toEqual({
      status: "all",
      sortOrder: "newest",
      q: undefined,
      platform: "all",
    });
  });

  it("leave defaults out of the address and keep a chosen network in it", () => {
    expect(toListSearch({ status: "all", sortOrder: "newest", platform: "all" })).toEqual({});
    expect(toListSearch({ status: "pending", sortOrder: "newest", platform: "telegram" })).toEqual({
      status: "pending",
      platform: "telegram",
    });
  });
});

describe("the platform filter", () => {
  const answer = { items: [], pagination: { page: 0, limit: 20, hasNextPage: false, totalCount: 0 } };
  const requested = async (load: (client: QueryClient) => Promise<unknown>) => {
    const fetchMock = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ success: true, statusCode: 200, timestamp: "", data: answer }), {
          headers: { "content-type": "application/json" },
        }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await load(new QueryClient());
    return new URL(fetchMock.mock.calls[0][0], "http://app.test");
  };
  const filters = (platform: SubmissionFilters["platform"]): SubmissionFilters => ({
    status: "all",
    sortOrder: "newest",
    platform,
  });

  it("reaches the list API as `platform`, and is left out for every network", async () => {
    const bluesky = await requested((client) =>
      client.fetchInfiniteQuery(submissionsInfiniteQueryOptions(filters("bluesky"))),
    );
    expect(bluesky.pathname).toBe("/api/submissions");
    expect(bluesky.searchParams.get("platform")).toBe("bluesky");

    const all = await requested((client) =>
      client.fetchInfiniteQuery(submissionsInfiniteQueryOptions(filters("all"))),
    );
    expect(all.searchParams.has("platform")).toBe(false);
  });

  it("narrows a feed's list the same way, under its own cache entry", async () => {
    const rss = await requested((client) =>
      client.fetchInfiniteQuery(feedSubmissionsInfiniteQueryOptions("solar", filters("rss"))),
    );
    expect(rss.pathname).toBe("/api/submissions/feed/solar");
    expect(rss.searchParams.get("platform")).toBe("rss");
    expect(feedSubmissionsInfiniteQueryOptions("solar", filters("rss")).queryKey).not.toEqual(
      feedSubmissionsInfiniteQueryOptions("solar", filters("all")).queryKey,
    );
  });
});

describe("submission pages", () => {
  const options = submissionsInfiniteQueryOptions({ status: "all", sortOrder: "newest", platform: "all" });
  const page = (index: number, hasNextPage: boolean): Paged<Submission> => ({
    items: [],
    pagination: { page: index, limit: 20, hasNextPage, totalCount: 45 },
  });

  it("start at page zero and ask for the next page only while the server says there is one", () => {
    expect(options.initialPageParam).toBe(0);
    expect(options.getNextPageParam(page(0, true), [page(0, true)], 0, [0])).toBe(1);
    expect(options.getNextPageParam(page(2, false), [], 2, [0, 1, 2])).toBeUndefined();
  });

  it("never refetch every loaded page: the first page alone refreshes every 10 s and on focus or reconnect", () => {
    expect(options.refetchInterval).toBeUndefined();
    expect(options.refetchOnWindowFocus).toBe(false);
    const head = submissionsHeadQueryOptions({ status: "all", sortOrder: "newest", platform: "all" });
    expect(head.refetchInterval).toBe(10_000);
    expect(head.refetchOnWindowFocus).toBe("always");
    expect(head.refetchOnReconnect).toBe("always");
  });
});

describe("merging a fresh first page into the loaded pages", () => {
  const item = (n: number, status: Submission["status"] = "pending") =>
    ({ tweetId: String(n), content: `Post ${n}`, status }) as Submission;
  const pageOf = (page: number, numbers: number[], totalCount = 60): Paged<Submission> => ({
    items: numbers.map((n) => item(n)),
    pagination: { page, limit: 3, hasNextPage: true, totalCount },
  });
  const loaded = { pages: [pageOf(0, [9, 8, 7]), pageOf(1, [6, 5, 4])], pageParams: [0, 1] };
  const ids = (data: typeof loaded) => data.pages.map((page) => page.items.map((entry) => entry.tweetId));

  it("puts new items on top of the first page and keeps the later pages and their numbers", () => {
    const merged = mergeHead(loaded, pageOf(0, [11, 10, 9], 62));
    expect(ids(merged)).toEqual([
      ["11", "10", "9", "8", "7"],
      ["6", "5", "4"],
    ]);
    expect(merged.pageParams).toEqual([0, 1]);
    expect(merged.pages[0]?.pagination.totalCount).toBe(62);
  });

  it("replaces loaded items with their newer copies in place", () => {
    const head = { ...pageOf(0, [9, 8, 7]), items: [item(9), item(8, "approved"), item(7)] };
    const merged = mergeHead(loaded, head);
    expect(ids(merged)).toEqual(ids(loaded));
    expect(merged.pages[0]?.items[1]?.status).toBe("approved");
  });

  it("returns the loaded pages themselves when nothing changed", () => {
    expect(mergeHead(loaded, pageOf(0, [9, 8, 7]))).toBe(loaded);
  });

  it("restarts from the head when it shares no item with what is loaded (the gap below it is unknown)", () => {
    const merged = mergeHead(loaded, pageOf(0, [14, 13, 12], 65));
    expect(ids(merged)).toEqual([["14", "13", "12"]]);
    expect(merged.pageParams).toEqual([0]);
  });
});
