import { type FeedRecentItems, feedRssFileUrl, RSS_READ_MESSAGES, type RssReadSettings } from "@curate/core";
import type { Logger } from "pino";
import type { User } from "../auth/sessions.ts";
import { callExternal } from "../clients/http.ts";
import type { AppEnv } from "../config/env.ts";
import type { Database } from "../db/index.ts";
import { AppError } from "../errors.ts";
import { getFeed } from "../feeds/service.ts";
import { readBodyUpTo } from "../http/bounded-body.ts";
import { ownRssBase } from "./items.ts";
import { RssReadError, readRecentItems } from "./reader.ts";
import type { RssService } from "./service.ts";

/** A feed's RSS file is read whole; past this size it is refused, never held. */
const MAX_RSS_FILE_BYTES = 5 * 1024 * 1024;

/** Where this deployment reads feeds' RSS files from: its own service, and the hosts the operator listed. */
export function rssReadSettings(env: Pick<AppEnv, "PUBLIC_URL" | "RSS_ALLOWED_HOSTS">): RssReadSettings {
  return {
    publicUrl: env.PUBLIC_URL,
    rssHosts: [new URL(env.PUBLIC_URL).host, ...env.RSS_ALLOWED_HOSTS.map((host) => host.toLowerCase())],
  };
}

export interface RecentItemsDeps {
  db: Database;
  env: Pick<AppEnv, "PUBLIC_URL" | "RSS_ALLOWED_HOSTS" | "SUPER_ADMIN_ACCOUNTS">;
  rss: RssService;
  logger?: Logger;
}

const unreadable = (problem: keyof typeof RSS_READ_MESSAGES) =>
  AppError.unavailable(RSS_READ_MESSAGES[problem], { reason: problem });

/** A file fetched from another host answers for this long: visitors' page views never become a stream of fetches. */
const FETCHED_FILE_TTL_MS = 60_000;
const MAX_FETCHED_FILES = 64;
const fetchedFiles = new Map<string, { until: number; xml: Promise<string> }>();

/**
 * An RSS file on a host the operator listed: fetched through the outbound guard, bounded in time and size, and
 * shared by every request for the same file for a minute (a failure is not kept).
 */
function fetchRssFile(url: string, logger?: Logger, now = Date.now()): Promise<string> {
  const known = fetchedFiles.get(url);
  if (known && known.until > now) return known.xml;
  const xml = fetchOnce(url, logger);
  fetchedFiles.delete(url);
  fetchedFiles.set(url, { until: now + FETCHED_FILE_TTL_MS, xml });
  if (fetchedFiles.size > MAX_FETCHED_FILES) fetchedFiles.delete(fetchedFiles.keys().next().value as string);
  xml.catch(() => fetchedFiles.get(url)?.xml === xml && fetchedFiles.delete(url));
  return xml;
}

async function fetchOnce(url: string, logger?: Logger): Promise<string> {
  let response: Response;
  try {
    response = await callExternal(
      url,
      { headers: { accept: "application/rss+xml, application/xml;q=0.9, */*;q=0.5" } },
      { service: "RSS service", reach: "configured", retries: 1, timeoutMs: 10_000, logger },
    );
  } catch (error) {
    logger?.warn({ err: error, url }, "a feed's RSS file could not be fetched");
    throw unreadable("fetch-failed");
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unreadable("fetch-failed");
  }
  const bytes = await readBodyUpTo(response, MAX_RSS_FILE_BYTES);
  if (!bytes) throw unreadable("fetch-failed");
  return new TextDecoder("utf-8").decode(bytes);
}

/**
 * What a feed has published, read from its RSS file (the stream's RSS output, else a recap's): from this
 * deployment's own RSS service without a request, or fetched from a host the operator listed in RSS_ALLOWED_HOSTS.
 * A feed with no such output answers no items and no source; a file that cannot be fetched or read is a 503 whose
 * `details.reason` says which (the spec's three RSS errors).
 */
export async function feedRecentItems(
  deps: RecentItemsDeps,
  viewer: User | null,
  feedId: string,
): Promise<FeedRecentItems> {
  const feed = await getFeed(deps.db, deps.env, viewer, feedId);
  const source = feedRssFileUrl(feed, rssReadSettings(deps.env));
  if (!source) return { source: null, items: [] };
  let xml: string;
  if (source.startsWith(`${ownRssBase(deps.env.PUBLIC_URL)}/`)) {
    const document = await deps.rss.document(feed.id, "rss");
    if (!document?.body) return { source, items: [] };
    xml = new TextDecoder("utf-8").decode(document.body);
  } else {
    xml = await fetchRssFile(source, deps.logger);
  }
  try {
    return { source, items: readRecentItems(xml) };
  } catch (error) {
    if (error instanceof RssReadError) throw unreadable(error.problem);
    throw error;
  }
}
