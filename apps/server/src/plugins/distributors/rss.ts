import { type RssDistributorConfig, rssDistributorConfigSchema } from "@curate/core";
import type { Database } from "../../db/index.ts";
import { addRssItem, DEFAULT_MAX_ITEMS, guidHash, type RssItemInput, rssItemFrom } from "../../rss/items.ts";
import { type DistributorPlugin, PluginError } from "../types.ts";

export interface RssSettings {
  db: Database;
  publicUrl: string;
}

/** This deployment's own RSS base: `{PUBLIC_URL}/rss`. */
export function ownRssBase(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/rss`;
}

function isOwnService(serviceUrl: string | undefined, publicUrl: string): boolean {
  if (!serviceUrl) return true;
  return serviceUrl.replace(/\/+$/, "") === ownRssBase(publicUrl);
}

/**
 * Publishes an item to the feed's RSS service: this deployment's own (`/rss/{feedId}/rss.xml`, Atom and JSON Feed)
 * unless the config points elsewhere. The same guid is never added twice.
 */
export function createRssDistributor(settings: RssSettings): DistributorPlugin<RssDistributorConfig> {
  return {
    type: "distributor",
    name: "rss",
    configSchema: rssDistributorConfigSchema,
    async render(input, config, context) {
      if (!isOwnService(config.serviceUrl, settings.publicUrl)) {
        throw new PluginError(
          `This server publishes RSS at ${ownRssBase(settings.publicUrl)}; set serviceUrl to it or leave it out.`,
          { code: "RSS_SERVICE_UNKNOWN" },
        );
      }
      const fallbackGuid = guidHash([context.feedId, context.submissionId ?? context.jobId]);
      return { action: "addItem", request: rssItemFrom(input, fallbackGuid) };
    },
    async send(rendered, config, context) {
      const item = rendered.request as RssItemInput;
      const { added } = await addRssItem(
        settings.db,
        context.feedId,
        { ...item, pubDate: new Date(item.pubDate) },
        config.maxItems ?? DEFAULT_MAX_ITEMS,
      );
      const feedUrl = `${ownRssBase(settings.publicUrl)}/${encodeURIComponent(context.feedId)}/rss.xml`;
      return { added, guid: item.guid, reference: { kind: "rss-item", id: item.guid, url: feedUrl } };
    },
  };
}
