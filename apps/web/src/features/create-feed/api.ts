import type { Feed } from "@curate/core";
import { queryOptions } from "@tanstack/react-query";
import { feedKeys, feedPath } from "#web/features/feeds/api";
import { api } from "#web/lib/api";

/** A lookup that succeeds means the hashtag is taken; any failure means it is free. Asked once, no retry. */
export const feedIdTakenQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: feedKeys.idCheck(feedId),
    queryFn: async ({ signal }) => {
      await api<Feed>(feedPath(feedId), { signal });
      return true;
    },
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
