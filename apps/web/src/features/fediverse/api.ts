import type { FediverseStatus } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** A feed's fediverse actor, for its managers: on or off, its handle, followers and deliveries. */
export const fediverseKeys = {
  all: ["fediverse"] as const,
  status: (feedId: string) => [...fediverseKeys.all, "status", feedId] as const,
};

export const fediverseStatusQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: fediverseKeys.status(feedId),
    queryFn: ({ signal }) =>
      api<FediverseStatus>(`/feeds/${encodeURIComponent(feedId)}/fediverse`, { signal }),
  });
