import type { CanModerate } from "@curate/core";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useCurrentUser } from "#web/features/auth/api";
import { api } from "#web/lib/api";

// Reads only; the decisions live in ./mutations. Route loaders prefetch the can-moderate answer, and whatever a
// loader imports may end up in the first load of "/", which must not carry the mutation code.

/** Document 1 §9: the can-moderate answer is cached for 5 minutes. */
export const CAN_MODERATE_CACHE_MS = 5 * 60_000;

export const moderationKeys = {
  all: ["moderation"] as const,
  // The account is part of the key so a different sign-in never reuses another account's answer.
  canModerate: (feedId: string, accountId: string | null) =>
    [...moderationKeys.all, "can-moderate", feedId, accountId] as const,
  canModerateFeed: (feedId: string) => [...moderationKeys.all, "can-moderate", feedId] as const,
  moderate: (feedId: string) => [...moderationKeys.all, "moderate", feedId] as const,
};

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
  if (userStatus === "pending") return "checking";
  if (accountId === null) return "denied";
  if (status === "pending") return "checking";
  return data?.canModerate === true ? "granted" : "denied";
}

/** Document 1 §6: moderation controls only for a signed-in user whose can-moderate check for the feed passes. */
export function useCanModerate(feedId: string): boolean {
  return useModeratorAccess(feedId) === "granted";
}
