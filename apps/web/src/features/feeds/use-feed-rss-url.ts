import type { Feed } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { appConfigQueryOptions } from "#web/features/config/api";
import { feedRssFileUrl, type RssSettings } from "./rss";

/** Until the settings arrive, the page's own address stands for the deployment's. */
export function rssSettingsOf(config: RssSettings | undefined): RssSettings {
  return config ?? { publicUrl: window.location.origin, rssHosts: [window.location.host] };
}

/** The feed's RSS file as the feed page and its content tab read it; null when the feed has no RSS output. */
export function useFeedRssUrl(feed: Feed): string | null {
  const { data: appConfig } = useQuery(appConfigQueryOptions());
  return feedRssFileUrl(feed, rssSettingsOf(appConfig));
}
