import { type BulkRun, type CanModerate, canManageFor, type Paged } from "@curate/core";
import { queryOptions, useQueries, useQuery } from "@tanstack/react-query";
import { useCurrentUser } from "#web/features/auth/api";
import { api } from "#web/lib/api";
import { useHydrating } from "#web/lib/use-hydrating";

// Reads only; the decisions live in ./mutations. Route loaders prefetch the can-moderate answer, and whatever a
// loader imports may end up in the first load of "/", which must not carry the mutation code.

/** Whether one may moderate changes rarely: the answer is kept for 5 minutes. */
export const CAN_MODERATE_CACHE_MS = 5 * 60_000;

export const moderationKeys = {
  all: ["moderation"] as const,
  // The account is part of the key so a different sign-in never reuses another account's answer.
  canModerate: (feedId: string, accountId: string | null) =>
    [...moderationKeys.all, "can-moderate", feedId, accountId] as const,
  canModerateFeed: (feedId: string) => [...moderationKeys.all, "can-moderate", feedId] as const,
  moderate: (feedId: string) => [...moderationKeys.all, "moderate", feedId] as const,
  latestBulkRun: (feedId: string) => [...moderationKeys.all, "bulk-runs", feedId, "latest"] as const,
};

/** How often a running background bulk decision's progress is read. */
export const BULK_RUN_POLL_MS = 1000;

export const isActiveBulkRun = (run: BulkRun | null | undefined) =>
  run?.state === "queued" || run?.state === "running";

/**
 * A feed's latest background bulk decision ("Select all N matching" beyond the cap), read again every second while
 * it runs, so the curation tab finds its progress when it is opened again.
 */
export const latestBulkRunQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: moderationKeys.latestBulkRun(feedId),
    queryFn: async ({ signal }) => {
      const page = await api<Paged<BulkRun>>("/moderate/bulk-runs", {
        query: { feedId, limit: 1 },
        signal,
      });
      return page.items[0] ?? null;
    },
    refetchInterval: (query) => (isActiveBulkRun(query.state.data) ? BULK_RUN_POLL_MS : false),
  });

export const canModerateQueryOptions = (feedId: string, accountId: string | null) =>
  queryOptions({
    queryKey: moderationKeys.canModerate(feedId, accountId),
    queryFn: ({ signal }) =>
      api<CanModerate>(`/feeds/${encodeURIComponent(feedId)}/can-moderate`, { signal }),
    staleTime: CAN_MODERATE_CACHE_MS,
    gcTime: CAN_MODERATE_CACHE_MS,
  });

export type ModeratorAccess = "checking" | "granted" | "denied";

/**
 * Whether the signed-in user moderates the feed, with the time it takes to find out, so screens only for
 * moderators (the processing tab) can wait instead of flashing their refusal. Signed out is "denied".
 */
export function useModeratorAccess(feedId: string): ModeratorAccess {
  const { data: user, status: userStatus } = useCurrentUser();
  const accountId = user?.nearAccountId ?? null;
  const { data, status } = useQuery({
    ...canModerateQueryOptions(feedId, accountId),
    enabled: accountId !== null,
  });
  // A server-rendered page knows no visitor: it hydrates as "checking" even if the answer is already here.
  const hydrating = useHydrating();
  if (hydrating || userStatus === "pending") return "checking";
  if (accountId === null) return "denied";
  if (status === "pending") return "checking";
  return data?.canModerate === true ? "granted" : "denied";
}

/**
 * Whether the signed-in user moderates at least one of the feeds (a post's feeds: its ledger is theirs to read),
 * from the same cached checks; "denied" as soon as every answer is in and none grants it, or when signed out.
 */
export function useModeratesAnyOf(feedIds: readonly string[]): ModeratorAccess {
  const { data: user, status: userStatus } = useCurrentUser();
  const accountId = user?.nearAccountId ?? null;
  const answers = useQueries({
    queries: feedIds.map((feedId) => ({
      ...canModerateQueryOptions(feedId, accountId),
      enabled: accountId !== null,
    })),
  });
  const hydrating = useHydrating();
  if (hydrating || userStatus === "pending") return "checking";
  if (accountId === null) return "denied";
  if (answers.some((answer) => answer.data?.canModerate === true)) return "granted";
  return answers.some((answer) => answer.status === "pending") ? "checking" : "denied";
}

/** Moderation controls only for a signed-in user whose can-moderate check for the feed passes. */
export function useCanModerate(feedId: string): boolean {
  return useModeratorAccess(feedId) === "granted";
}

export type EditorAccess = "checking" | "granted" | "denied";

/** Whether the signed-in user may edit (and delete) the feed, from the same cached check as moderation. */
export function useFeedEditorAccess(feedId: string): EditorAccess {
  const { data: user, status: userStatus } = useCurrentUser();
  const accountId = user?.nearAccountId ?? null;
  const { data, status } = useQuery({
    ...canModerateQueryOptions(feedId, accountId),
    enabled: accountId !== null,
  });
  const hydrating = useHydrating();
  if (hydrating || userStatus === "pending") return "checking";
  if (accountId === null) return "denied";
  if (status === "pending") return "checking";
  // Editing a feed is for its creator, its admins and super admins; approvers moderate but do not edit.
  return data && canManageFor(data.reason) ? "granted" : "denied";
}
