import { DEFAULT_PAGE_SIZE, type ScheduledChannel, type ScheduledSendPage } from "@curate/core";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "#web/lib/api";

/** Items per page of the Scheduled tab. */
export const SCHEDULED_PAGE_SIZE = DEFAULT_PAGE_SIZE;

export const scheduleKeys = {
  all: ["schedule"] as const,
  feed: (feedId: string) => [...scheduleKeys.all, feedId] as const,
  channels: (feedId: string) => [...scheduleKeys.feed(feedId), "channels"] as const,
  sends: (feedId: string) => [...scheduleKeys.feed(feedId), "sends"] as const,
  sendPage: (feedId: string, channelKey: string, page: number) =>
    [...scheduleKeys.sends(feedId), channelKey, page] as const,
};

const schedulePath = (feedId: string) => `/processing/feeds/${encodeURIComponent(feedId)}/schedule`;

/** The feed's scheduled channels (moderators only): each one's schedule in words and how many items wait. */
export const scheduledChannelsQueryOptions = (feedId: string) =>
  queryOptions({
    queryKey: scheduleKeys.channels(feedId),
    queryFn: async ({ signal }) =>
      (await api<{ channels: ScheduledChannel[] }>(schedulePath(feedId), { signal })).channels,
  });

/**
 * One channel's line, a page at a time. It moves by itself as slots pass, so it is asked again each minute; while
 * an item is on its way ("publish now"), every two seconds until it has gone.
 */
export const scheduledSendsQueryOptions = (feedId: string, channelKey: string, page: number) =>
  queryOptions({
    queryKey: scheduleKeys.sendPage(feedId, channelKey, page),
    queryFn: ({ signal }) =>
      api<ScheduledSendPage>(`${schedulePath(feedId)}/sends`, {
        signal,
        query: { channelKey, page, limit: SCHEDULED_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.publishNow) ? 2000 : 60_000),
  });
