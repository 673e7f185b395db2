import { listSearchSchema, type Paged, type Submission } from "@curate/core";
import { describe, expect, it } from "vitest";
import { submissionsHeadQueryOptions, submissionsInfiniteQueryOptions, toSubmissionFilters } from "./api";

describe("Explore search parameters", () => {
  it("turn into the list filters they name", () => {
    const search = listSearchSchema.parse({ status: "approved", sortOrder: "oldest", q: "near" });
    expect(toSubmissionFilters(search)).toEqual({ status: "approved", sortOrder: "oldest", q: "near" });
  });

  it("fall back to all, newest and no search when the address holds unusable values", () => {
    const search = listSearchSchema.parse({ status: "bogus", sortOrder: 7, q: "   " });
    expect(toSubmissionFilters(search)).toEqual({ status: "all", sortOrder: "newest", q: undefined });
  });
});

describe("submission pages", () => {
  const options = submissionsInfiniteQueryOptions({ status: "all", sortOrder: "newest" });
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
    const head = submissionsHeadQueryOptions({ status: "all", sortOrder: "newest" });
    expect(head.refetchInterval).toBe(10_000);
    expect(head.refetchOnWindowFocus).toBe("always");
    expect(head.refetchOnReconnect).toBe("always");
  });
});
