import { type Feed, feedRssFileUrl, type RssReadSettings } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { appConfigQueryOptions } from "#web/features/config/api";

/** Until the settings arrive, the page's own address stands for the deployment's. */
export function rssSettingsOf(config: RssReadSettings | undefined): RssReadSettings {
  return config ?? { publicUrl: window.location.origin, rssHosts: [window.location.host] };
}

/** The feed's RSS file, whose items the feed page and its content tab show; null when the feed has no RSS output. */
export function useFeedRssUrl(feed: Feed): string | null {
  const { data: appConfig } = useQuery(appConfigQueryOptions());
  return feedRssFileUrl(feed, rssSettingsOf(appConfig));
}
