import { type RssDistributorConfig, type RssReaderItem, rssDistributorConfigSchema } from "@curate/core";
import { callExternal, ExternalServiceError } from "../../clients/http.ts";
import { BlockedUrlError } from "../../clients/outbound.ts";
import type { Database } from "../../db/index.ts";
import { rssReaderItem } from "../../rss/documents.ts";
import {
  addRssItem,
  DEFAULT_MAX_ITEMS,
  feedSiteUrl,
  guidHash,
  isOwnRssService,
  ownRssBase,
  type RssItemInput,
  removeRssItem,
  replaceRssItem,
  rssItemFrom,
} from "../../rss/items.ts";
import { bodyAsHtml, textAsHtml } from "../../rss/text.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type RenderedDistribution,
  type RetractionOutcome,
} from "../types.ts";

export interface RssSettings {
  db: Database;
  publicUrl: string;
  /** Hosts an external RSS service may be on although they are not public (`PRIVATE_HOSTS_ALLOWED`). */
  allowedHosts: readonly string[];
}

const TIMEOUT_MS = 10_000;

/**
 * An item as an external RSS service's item API takes it (`POST {serviceUrl}/api/items`, the open curate.fun
 * rss-service): the `feed` package's item fields, dates as ISO 8601. `description` and `content` are HTML there, so
 * the text goes in escaped; the title is plain text.
 */
export interface ExternalRssItem {
  title: string;
  link: string;
  guid: string;
  description?: string;
  content: string;
  published: string;
  date: string;
  author?: Array<{ name: string }>;
  category?: Array<{ name: string }>;
  image?: string;
}

/** What the distributor sends to an external service, credentials left out. */
export interface ExternalRssRequest {
  url: string;
  item: ExternalRssItem;
}

function externalItem(item: RssItemInput, shown: RssReaderItem): ExternalRssItem {
  const body = item.content ?? item.description ?? item.title;
  if (!item.link) {
    throw new PluginError(
      "The RSS service needs a link for every item and this one has none: map link (or url) in the feed's transforms.",
      { code: "RSS_ITEM_INCOMPLETE" },
    );
  }
  if (!body) {
    throw new PluginError(
      "The RSS service needs content for every item and this one has no content, description or title: map one in the feed's transforms.",
      { code: "RSS_ITEM_INCOMPLETE" },
    );
  }
  return {
    title: shown.title,
    link: item.link,
    guid: item.guid,
    ...(item.description ? { description: textAsHtml(item.description) } : {}),
    content: bodyAsHtml(body),
    published: item.pubDate.toISOString(),
    date: item.pubDate.toISOString(),
    ...(item.author ? { author: [{ name: item.author }] } : {}),
    ...(item.categories.length ? { category: item.categories.map((name) => ({ name })) } : {}),
    ...(item.image ? { image: item.image } : {}),
  };
}

/** What the service said: its `{ error, message }` body, or the start of whatever else it answered. */
async function said(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const parts = [body.error, body.message].filter(
      (part): part is string => typeof part === "string" && !!part,
    );
    if (parts.length) return parts.join(": ").slice(0, 300);
  } catch {
    // Not JSON: a proxy's page or plain text.
  }
  return text.trim().slice(0, 200);
}

async function answerError(response: Response, url: string): Promise<PluginError> {
  const status = response.status;
  if (status >= 300 && status < 400) {
    const location = response.headers.get("location");
    return new PluginError(
      `The RSS service redirected the item (${status}${location ? ` to ${location}` : ""}); redirects are not followed: set serviceUrl to the service's final address.`,
      { code: "RSS_SERVICE_REDIRECTED" },
    );
  }
  const detail = await said(response);
  const because = detail ? `: ${detail}` : "";
  if (status === 401 || status === 403) {
    return new PluginError(
      `The RSS service refused the secret (${status}${because}): set the feed secret behind apiSecret to the service's API secret.`,
      { code: CREDENTIALS_REJECTED },
    );
  }
  if (status === 404 || status === 405) {
    return new PluginError(
      `The RSS service has no item API at ${url} (${status}): set serviceUrl to the service's root address.`,
      { code: "RSS_SERVICE_NOT_FOUND" },
    );
  }
  if (status === 400 || status === 413 || status === 422) {
    return new PluginError(
      `The RSS service refused the item (${status}${because}): check what the feed's transforms map.`,
      {
        code: "RSS_ITEM_REJECTED",
      },
    );
  }
  return new PluginError(`The RSS service refused the item (${status}${because}).`, {
    code: "RSS_SERVICE_REJECTED",
  });
}

/**
 * Publishes an item to the feed's RSS service: this deployment's own (`/rss/{feedId}/rss.xml`, Atom, JSON Feed)
 * unless `serviceUrl` names another, where the item is posted to its item API with the bearer secret from
 * `apiSecret`. On this deployment's own service the same guid is never added twice; an external service is sent the
 * same guid on every retry.
 */
export function createRssDistributor(settings: RssSettings): DistributorPlugin<RssDistributorConfig> {
  const own = (config: RssDistributorConfig) => isOwnRssService(config.serviceUrl, settings.publicUrl);
  return {
    type: "distributor",
    name: "rss",
    configSchema: rssDistributorConfigSchema,
    // This deployment's own service is a row in its database; an external one is somebody's small server.
    throttle: (config) =>
      own(config)
        ? []
        : [{ key: `rss-service:${new URL(config.serviceUrl as string).host}`, intervalMs: 100 }],
    async render(input, config, context) {
      const fallbackGuid = guidHash([context.feedId, context.submissionId ?? context.jobId]);
      const item = rssItemFrom(input, fallbackGuid);
      const siteUrl = feedSiteUrl(config.feedConfig, settings.publicUrl, context.feedId);
      const shown = rssReaderItem(context.feedId, item, siteUrl);
      if (own(config) && context.replay) {
        const replaced = rssReplaceOf(item, context.replay.receipt);
        if (replaced) return { ...replaced, shown: rssReaderItem(context.feedId, replaced.request, siteUrl) };
      }
      if (own(config)) return { action: "addItem", request: item, shown };
      if (!config.apiSecret) {
        throw new PluginError(
          "An external RSS service needs its API secret: set apiSecret to a {{NAME}} placeholder of a feed secret holding it.",
          { code: "RSS_SECRET_MISSING" },
        );
      }
      const request: ExternalRssRequest = {
        url: `${(config.serviceUrl as string).replace(/\/+$/, "")}/api/items`,
        item: externalItem(item, shown),
      };
      return { action: "POST /api/items", request, shown };
    },
    async send(rendered, config, context) {
      if (rendered.action === "replaceItem") return sendRssReplace(settings, rendered, config, context);
      if (own(config)) {
        const item = rendered.request as RssItemInput;
        const { added } = await addRssItem(
          settings.db,
          context.feedId,
          { ...item, pubDate: new Date(item.pubDate) },
          config.maxItems ?? DEFAULT_MAX_ITEMS,
        );
        const feedUrl = `${ownRssBase(settings.publicUrl)}/${encodeURIComponent(context.feedId)}/rss.xml`;
        return { added, guid: item.guid, reference: { kind: "rss-item", id: item.guid, url: feedUrl } };
      }
      const { url, item } = rendered.request as ExternalRssRequest;
      let response: Response;
      try {
        response = await callExternal(
          url,
          {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              "User-Agent": "Curate-RSS/1",
              Authorization: `Bearer ${config.apiSecret}`,
            },
            body: JSON.stringify(item),
            signal: context.signal,
          },
          {
            service: "The RSS service",
            timeoutMs: TIMEOUT_MS,
            retries: 0,
            reach: { privateHostsAllowed: settings.allowedHosts },
          },
        );
      } catch (error) {
        if (error instanceof BlockedUrlError)
          throw new PluginError(error.message, { code: "RSS_URL_REFUSED" });
        if (error instanceof ExternalServiceError) {
          throw new PluginError(error.message, {
            code: "RSS_SERVICE_UNAVAILABLE",
            retryable: true,
            retryAfterMs: error.retryAfterMs,
            cause: error,
          });
        }
        throw error;
      }
      if (!response.ok) throw await answerError(response, url);
      await response.body?.cancel();
      const service = (config.serviceUrl as string).replace(/\/+$/, "");
      return {
        status: response.status,
        guid: item.guid,
        reference: {
          kind: "rss-item",
          id: item.guid,
          url: `${service}/${encodeURIComponent(context.feedId)}/rss.xml`,
        },
      };
    },
    retract: (receipt, config, context) => retractRssItem(settings, own(config), receipt, context),
  };
}

// --- Replays (decision 0015): on this deployment's own service a replay replaces the item it published before. ---

function rssReplaceOf(
  item: RssItemInput,
  receipt: DistributionReceipt,
): (RenderedDistribution & { request: RssItemInput }) | null {
  const guid = typeof receipt.guid === "string" ? receipt.guid : receipt.reference?.id;
  if (!guid) return null;
  return { action: "replaceItem", request: { ...item, guid }, edits: true };
}

async function sendRssReplace(
  settings: RssSettings,
  rendered: RenderedDistribution,
  config: RssDistributorConfig,
  context: PluginContext,
): Promise<DistributionReceipt> {
  const item = rendered.request as RssItemInput;
  const { replaced } = await replaceRssItem(
    settings.db,
    context.feedId,
    { ...item, pubDate: new Date(item.pubDate) },
    config.maxItems ?? DEFAULT_MAX_ITEMS,
  );
  const feedUrl = `${ownRssBase(settings.publicUrl)}/${encodeURIComponent(context.feedId)}/rss.xml`;
  return { replaced, guid: item.guid, reference: { kind: "rss-item", id: item.guid, url: feedUrl } };
}

/**
 * Retraction: on this deployment's own RSS service the item is removed, and so leaves its RSS, Atom and JSON Feed
 * documents at once. An external service's item API has no removal this server knows, so its item is recorded as
 * "cannot retract".
 */
export async function retractRssItem(
  settings: RssSettings,
  ownService: boolean,
  receipt: DistributionReceipt,
  context: PluginContext,
): Promise<RetractionOutcome> {
  const guid = typeof receipt.guid === "string" ? receipt.guid : receipt.reference?.id;
  if (!guid)
    return {
      retracted: false,
      reason: "The send did not record the item's guid, so it cannot be found to remove.",
    };
  if (!ownService) {
    return {
      retracted: false,
      reason: `The external RSS service's item API has no removal; remove the item ${guid} on that service.`,
    };
  }
  const { removed } = await removeRssItem(settings.db, context.feedId, guid);
  return removed ? { retracted: true, guid } : { retracted: true, alreadyGone: true, guid };
}
