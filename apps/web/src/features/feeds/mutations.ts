import type { Feed, FeedConfig } from "@curate/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "#web/lib/api";
import { feedKeys, feedPath } from "./api";

// Writes live apart from the read queries in ./api, which Explore loads on the first page.

/** Feeds appear in lists, details and the profile's feed lists; every write refreshes all of them. */
function useInvalidateFeeds() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: feedKeys.all }),
      // The profile feature's lists (profileKeys.all), named by value to keep this module free of its queries.
      queryClient.invalidateQueries({ queryKey: ["profile"] }),
    ]);
}

export function useCreateFeed() {
  const invalidate = useInvalidateFeeds();
  return useMutation({
    mutationFn: (config: FeedConfig) => api<Feed>("/feeds", { method: "POST", body: config }),
    onSuccess: invalidate,
  });
}

export function useUpdateFeed(feedId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFeeds();
  return useMutation({
    mutationFn: (config: FeedConfig) => api<Feed>(feedPath(feedId), { method: "PUT", body: config }),
    onSuccess: (feed) => {
      queryClient.setQueryData(feedKeys.detail(feedId), feed);
      return invalidate();
    },
  });
}

export function useDeleteFeed(feedId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFeeds();
  return useMutation({
    mutationFn: () => api<{ id: string; deleted: true }>(feedPath(feedId), { method: "DELETE" }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: feedKeys.detail(feedId) });
      return invalidate();
    },
  });
}

export interface FieldIssue {
  path: string;
  message: string;
}

/** The field issues of a 400 VALIDATION_ERROR (`error.details`), or none. */
export function fieldIssues(error: unknown): FieldIssue[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const details = (error.body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail) =>
    detail && typeof detail === "object" && typeof (detail as FieldIssue).message === "string"
      ? [{ path: String((detail as FieldIssue).path ?? ""), message: (detail as FieldIssue).message }]
      : [],
  );
}
