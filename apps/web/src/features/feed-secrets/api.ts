import type { FeedSecret } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const feedSecretKeys = {
  all: ["feed-secrets"] as const,
  list: (feedId: string) => [...feedSecretKeys.all, feedId.toLowerCase()] as const,
};

export const feedSecretsPath = (feedId: string) => `/feeds/${encodeURIComponent(feedId)}/secrets`;

/** Names and dates of a feed's secrets (owners and admins); the values never leave the server. */
export const feedSecretsQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: feedSecretKeys.list(feedId),
    queryFn: ({ signal }) => api<FeedSecret[]>(feedSecretsPath(feedId), { signal }),
  });
