import {
  type NotionDistributorConfig,
  type NotionPropertyType,
  notionDistributorConfigSchema,
} from "@curate/core";
import {
  APIErrorCode,
  Client,
  isHTTPResponseError,
  isNotionClientError,
  LogLevel,
  RequestTimeoutError,
} from "@notionhq/client";
import { configuredFetch } from "../../clients/outbound.ts";
import { valueAt } from "../templates.ts";
import {
  CREDENTIALS_REJECTED,
  type DistributionReceipt,
  type DistributorPlugin,
  type PluginContext,
  PluginError,
  type RenderedDistribution,
  type RetractionOutcome,
} from "../types.ts";
import { chunkText, cleanText, cutText, httpUrl } from "./content.ts";

export interface NotionSettings {
  /** Notion's API without `/v1` (`NOTION_API_BASE_URL`, `https://api.notion.com`). */
  baseUrl: string;
}

const TIMEOUT_MS = 30_000;

/** Notion's request limits (https://developers.notion.com/reference/request-limits). */
export const NOTION_LIMITS = {
  textContent: 2000,
  richTextItems: 100,
  multiSelectOptions: 100,
  optionName: 100,
  url: 2000,
  email: 200,
  phone: 200,
} as const;

type RichText = Array<{ type: "text"; text: { content: string } }>;

/** A page property value as pages.create takes it. */
export type NotionPropertyValue =
  | { title: RichText }
  | { rich_text: RichText }
  | { date: { start: string } }
  | { number: number }
  | { checkbox: boolean }
  | { multi_select: Array<{ name: string }> }
  | { select: { name: string } }
  | { url: string }
  | { email: string }
  | { phone_number: string };

/**
 * pages.create's parameters. Since API version 2025-09-03 a page goes into one of a database's data sources: the
 * config's `dataSourceId`, or, for configs that name only the database, its one data source, which the send looks
 * up (a render makes no request to Notion, so a dry run shows the database).
 */
export interface NotionPageRequest {
  parent: { type: "data_source_id"; data_source_id: string } | { type: "database_id"; database_id: string };
  properties: Record<string, NotionPropertyValue>;
}

function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = Array.isArray(value)
    ? value.map((item) => (typeof item === "string" ? item : JSON.stringify(item))).join(", ")
    : typeof value === "string"
      ? value
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : JSON.stringify(value);
  const cleaned = cleanText(text).trim();
  return cleaned || null;
}

/** Text in rich-text objects of at most 2,000 characters each, at most 100 of them (cut with "…" beyond). */
function richText(value: unknown): RichText | null {
  const text = textOf(value);
  if (!text) return null;
  const fitted = cutText(text, NOTION_LIMITS.textContent * NOTION_LIMITS.richTextItems);
  return chunkText(fitted, NOTION_LIMITS.textContent).map((content) => ({ type: "text", text: { content } }));
}

/** An option's name: Notion refuses commas in one, and takes at most 100 characters. */
function optionName(value: unknown): string | null {
  const text = textOf(value);
  if (!text) return null;
  const name = cutText(text.replace(/,/g, " ").replace(/\s+/g, " ").trim(), NOTION_LIMITS.optionName);
  return name || null;
}

function dateOf(value: unknown): string | null {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return value.trim();
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function booleanOf(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string" && /^(true|false|yes|no|1|0)$/i.test(value.trim())) {
    return /^(true|yes|1)$/i.test(value.trim());
  }
  return null;
}

/** The input's value as a property of `type`, or null when it has none that fits (the property is left out). */
function propertyValue(type: NotionPropertyType, value: unknown): NotionPropertyValue | null {
  switch (type) {
    case "title": {
      const text = richText(value);
      return text && { title: text };
    }
    case "rich_text": {
      const text = richText(value);
      return text && { rich_text: text };
    }
    case "date": {
      const start = dateOf(value);
      return start ? { date: { start } } : null;
    }
    case "number": {
      const number = typeof value === "string" && value.trim() ? Number(value) : value;
      return typeof number === "number" && Number.isFinite(number) ? { number } : null;
    }
    case "checkbox": {
      const checked = booleanOf(value);
      return checked === null ? null : { checkbox: checked };
    }
    case "multi_select": {
      const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value];
      const names = [...new Set(items.map(optionName).filter((name): name is string => name !== null))];
      return names.length
        ? { multi_select: names.slice(0, NOTION_LIMITS.multiSelectOptions).map((name) => ({ name })) }
        : null;
    }
    case "select": {
      const name = optionName(value);
      return name ? { select: { name } } : null;
    }
    case "url": {
      const url = httpUrl(value);
      return url && url.length <= NOTION_LIMITS.url ? { url } : null;
    }
    case "email": {
      const email = typeof value === "string" ? value.trim() : "";
      return /^[^\s@]+@[^\s@]+$/.test(email) && email.length <= NOTION_LIMITS.email ? { email } : null;
    }
    case "phone_number": {
      const phone = textOf(value);
      return phone && phone.length <= NOTION_LIMITS.phone ? { phone_number: phone } : null;
    }
  }
}

/** Notion's dashed form of an id (it takes both; the dashed one is what its answers name). */
const dashed = (id: string) => {
  const hex = id.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

function retryAfterMs(headers: unknown): number | undefined {
  const value =
    headers instanceof Headers
      ? headers.get("retry-after")
      : (headers as Record<string, string> | undefined)?.["retry-after"];
  const seconds = Number(value);
  return value && Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

/** Notion's errors as step errors that say what to fix; only rate limits, conflicts and outages are retryable. */
function stepError(
  error: unknown,
  config: Pick<NotionDistributorConfig, "databaseId" | "dataSourceId">,
): PluginError {
  const { databaseId, dataSourceId } = config;
  if (error instanceof PluginError) return error;
  if (error instanceof RequestTimeoutError) {
    return new PluginError("Notion did not answer in time.", {
      code: "NOTION_TIMEOUT",
      retryable: true,
      cause: error,
    });
  }
  if (isHTTPResponseError(error)) {
    const said = `(${error.code === "notionhq_client_response_error" ? error.status : error.code}: ${error.message})`;
    switch (error.code) {
      case APIErrorCode.Unauthorized:
        return new PluginError(
          `Notion refused the integration's secret ${said}: check the variable behind token (Notion: Settings → Connections → the integration's secret).`,
          { code: CREDENTIALS_REJECTED, cause: error },
        );
      case APIErrorCode.RestrictedResource:
        return new PluginError(
          `The integration may not add pages to database ${databaseId} ${said}: give it the "Insert content" capability and add it to the database's Connections.`,
          { code: CREDENTIALS_REJECTED, cause: error },
        );
      case APIErrorCode.ObjectNotFound:
        return new PluginError(
          dataSourceId
            ? `Notion cannot find data source ${dataSourceId}, or its database is not shared with the integration ${said}: check dataSourceId and add the integration to the database's Connections.`
            : `Notion cannot find database ${databaseId}, or it is not shared with the integration ${said}: check databaseId and add the integration to the database's Connections.`,
          { code: "NOTION_NOT_FOUND", cause: error },
        );
      case APIErrorCode.RateLimited:
        return new PluginError(`Notion is rate limiting the integration ${said}.`, {
          code: "NOTION_RATE_LIMITED",
          retryable: true,
          retryAfterMs: retryAfterMs(error.headers),
          cause: error,
        });
      case APIErrorCode.ValidationError:
      case APIErrorCode.InvalidRequest:
        return new PluginError(
          `Notion refused the page ${said}: the database's properties must have the names and types that fields gives them.`,
          { code: "NOTION_REJECTED", cause: error },
        );
      case APIErrorCode.ConflictError:
        return new PluginError(`Notion had a conflicting change ${said}; it asks to try again.`, {
          code: "NOTION_CONFLICT",
          retryable: true,
          cause: error,
        });
    }
    if (error.status >= 500) {
      return new PluginError(`Notion failed ${said}.`, {
        code: "NOTION_UNAVAILABLE",
        retryable: true,
        cause: error,
      });
    }
    return new PluginError(`Notion refused the request ${said}.`, { code: "NOTION_REJECTED", cause: error });
  }
  if (isNotionClientError(error)) {
    return new PluginError(`The Notion step failed: ${error.message}`, {
      code: "NOTION_FAILED",
      cause: error,
    });
  }
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    return new PluginError("The Notion step was stopped before Notion answered.", {
      code: "NOTION_TIMEOUT",
      retryable: true,
      cause: error,
    });
  }
  return new PluginError("Notion could not be reached.", {
    code: "NOTION_UNREACHABLE",
    retryable: true,
    cause: error,
  });
}

function clientFor(settings: NotionSettings, token: string, context: PluginContext): Client {
  const send = configuredFetch(settings.baseUrl);
  return new Client({
    auth: token,
    baseUrl: settings.baseUrl.replace(/\/+$/, ""),
    timeoutMs: TIMEOUT_MS,
    // The engine retries with backoff and the wait Notion names; retrying here too would multiply the waits.
    retry: false,
    fetch: (url, init) => send(url, { ...init, signal: context.signal }),
    logLevel: LogLevel.WARN,
    logger: (level, message, extra) => context.logger.debug({ notion: extra, level }, message),
  });
}

/**
 * A page in a Notion database (the official SDK against `baseUrl`), its properties from the input's fields as
 * `fields` maps them, each value fitted to Notion's limits. With `idempotencyProperty`, the publication's key is
 * written to that text property and looked up first, so a retried publication finds its page instead of adding
 * another; without it Notion cannot deduplicate.
 */
export function createNotionDistributor(
  settings: NotionSettings,
): DistributorPlugin<NotionDistributorConfig> {
  return {
    type: "distributor",
    name: "notion",
    configSchema: notionDistributorConfigSchema,
    // Notion: three requests a second per integration on average; a publication may make three.
    throttle: (config) => [{ key: `integration:${config.token}`, intervalMs: 1000 }],
    async render(input, config, context) {
      const properties: Record<string, NotionPropertyValue> = {};
      for (const [field, spec] of Object.entries(config.fields)) {
        const { type, property } = typeof spec === "string" ? { type: spec, property: field } : spec;
        const value = propertyValue(type, valueAt(input, field));
        if (value) properties[property] = value;
      }
      if (Object.keys(properties).length === 0) {
        throw new PluginError(
          `None of the mapped fields (${Object.keys(config.fields).join(", ")}) has a value in this item: check fields against the input.`,
          { code: "NOTION_EMPTY_PAGE" },
        );
      }
      if (config.idempotencyProperty && context.idempotencyKey) {
        properties[config.idempotencyProperty] = {
          rich_text: [{ type: "text", text: { content: context.idempotencyKey } }],
        };
      }
      const request: NotionPageRequest = {
        parent: config.dataSourceId
          ? { type: "data_source_id", data_source_id: dashed(config.dataSourceId) }
          : { type: "database_id", database_id: dashed(config.databaseId) },
        properties,
      };
      const update = context.replay ? notionUpdateOf(request, context.replay.receipt) : null;
      return update
        ? { action: "pages.update", request: update, edits: true }
        : { action: "pages.create", request };
    },
    async send(rendered, config, context) {
      const request = rendered.request as NotionPageRequest;
      const notion = clientFor(settings, config.token, context);
      if (rendered.action === "pages.update") return sendNotionUpdate(notion, rendered, config);
      try {
        const dataSourceId = await dataSourceOf(notion, request.parent);
        const key = context.idempotencyKey;
        if (config.idempotencyProperty && key) {
          const found = await notion.dataSources.query({
            data_source_id: dataSourceId,
            filter: { property: config.idempotencyProperty, rich_text: { equals: key } },
            page_size: 1,
          });
          const [page] = found.results;
          if (page) {
            const url = "url" in page ? page.url : undefined;
            return {
              pageId: page.id,
              existing: true,
              reference: { kind: "notion-page", id: page.id, url },
            };
          }
        }
        const page = await notion.pages.create({
          ...request,
          parent: { type: "data_source_id", data_source_id: dataSourceId },
        });
        const url = "url" in page ? page.url : undefined;
        return { pageId: page.id, reference: { kind: "notion-page", id: page.id, url } };
      } catch (error) {
        throw stepError(error, config);
      }
    },
    retract: (receipt, config, context) => retractNotionPage(settings, receipt, config, context),
  };
}

/**
 * The data source a page goes to: the one the config names, else the database's only one. A database with several
 * is a choice the config must make (a page in the wrong table is worse than none), so it is an error naming them.
 */
async function dataSourceOf(notion: Client, parent: NotionPageRequest["parent"]): Promise<string> {
  if (parent.type === "data_source_id") return parent.data_source_id;
  const database = await notion.databases.retrieve({ database_id: parent.database_id });
  const sources = "data_sources" in database ? database.data_sources : [];
  if (sources.length === 1) return sources[0].id;
  if (sources.length === 0) {
    throw new PluginError(
      `Notion database ${parent.database_id} has no data source the integration can see: check databaseId, or set dataSourceId.`,
      { code: "NOTION_NO_DATA_SOURCE" },
    );
  }
  const choices = sources
    .slice(0, 10)
    .map((source) => `"${cleanText(source.name).slice(0, 100)}" (${source.id})`)
    .join(", ");
  throw new PluginError(
    `Notion database ${parent.database_id} has ${sources.length} data sources: ${choices}. Set dataSourceId to the one pages go to.`,
    { code: "NOTION_DATA_SOURCE_AMBIGUOUS" },
  );
}

// --- Replays (decision 0015): a replay updates the page the branch created before (pages.update). ---

/** The pages.update parameters this distributor sends on a replay. */
export interface NotionPageUpdate {
  page_id: string;
  properties: Record<string, NotionPropertyValue>;
}

function notionUpdateOf(request: NotionPageRequest, receipt: DistributionReceipt): NotionPageUpdate | null {
  const pageId = receipt.pageId;
  if (typeof pageId !== "string" || !pageId) return null;
  return { page_id: pageId, properties: request.properties };
}

async function sendNotionUpdate(
  notion: Client,
  rendered: RenderedDistribution,
  config: NotionDistributorConfig,
): Promise<DistributionReceipt> {
  const request = rendered.request as NotionPageUpdate;
  try {
    const page = await notion.pages.update(request);
    const url = "url" in page ? page.url : undefined;
    return { pageId: page.id, updated: true, reference: { kind: "notion-page", id: page.id, url } };
  } catch (error) {
    throw stepError(error, config);
  }
}

/**
 * Retraction: moves the page the send made to Notion's trash (pages.update with `in_trash`, what Notion's API
 * calls archiving), where the workspace can still restore it. A page Notion no longer finds, or one already in the
 * trash, counts as retracted.
 */
export async function retractNotionPage(
  settings: NotionSettings,
  receipt: DistributionReceipt,
  config: NotionDistributorConfig,
  context: PluginContext,
): Promise<RetractionOutcome> {
  const pageId = String(receipt.pageId ?? receipt.reference?.id ?? "");
  if (!pageId) {
    return {
      retracted: false,
      reason: "The send did not record the Notion page's id, so it cannot be found to archive.",
    };
  }
  const notion = clientFor(settings, config.token, context);
  try {
    await notion.pages.update({ page_id: pageId, in_trash: true });
    return { retracted: true, pageId };
  } catch (error) {
    if (isHTTPResponseError(error)) {
      if (error.code === APIErrorCode.ObjectNotFound) return { retracted: true, alreadyGone: true, pageId };
      if (error.code === APIErrorCode.ValidationError && /archived|in trash/i.test(error.message)) {
        return { retracted: true, alreadyGone: true, pageId };
      }
      if (error.code === APIErrorCode.RestrictedResource) {
        throw new PluginError(
          `The integration may not archive page ${pageId} (${error.message}): give it the "Update content" capability.`,
          { code: CREDENTIALS_REJECTED, cause: error },
        );
      }
    }
    throw stepError(error, config);
  }
}
