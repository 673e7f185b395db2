import type { CanModerate } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

// Kept apart from the moderation hooks: the curation route's loader (part of the app's entry, which the router does
// not split) prefetches the can-moderate answer, and must not pull the mutation code into the first load of "/".

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
