import { z } from "zod";
import { RSS_PLATFORMS } from "./rss-rules.ts";

/** At most this many items of a feed's RSS file are read; past it the rest is left out, never the answer unbounded. */
export const RSS_RECENT_MAX_ITEMS = 1000;

/**
 * Why a feed's RSS file gave no items: it could not be fetched, it is not XML, or it is XML but not RSS 2.0. Sent in
 * a 503's `details.reason` (the file's service is what failed, not the request), so the page says the spec's text.
 */
export const RSS_READ_PROBLEMS = ["fetch-failed", "invalid-xml", "invalid-feed"] as const;
export type RssReadProblem = (typeof RSS_READ_PROBLEMS)[number];

/** The spec's texts of each of the RSS errors: the answer's message, and what the page shows. */
export const RSS_READ_MESSAGES: Record<RssReadProblem, string> = {
  "fetch-failed": "Failed to fetch RSS feed",
  "invalid-xml": "Invalid XML format",
  "invalid-feed": "Invalid RSS feed format",
};

export const feedRecentItemSchema = z.object({
  title: z.string().max(500),
  /** An http(s) address, or null when the item has none (or one that is not safe to link to). */
  link: z.string().max(2000).nullable(),
  /** Plain text: the item's HTML description read as a reader sees it. */
  description: z.string().max(2000),
  /** As the file writes it (RFC 822), or null when it has none that parses. */
  pubDate: z.string().max(100).nullable(),
  guid: z.string().max(500),
  image: z.string().max(2000).nullable(),
  platform: z.enum(RSS_PLATFORMS),
  categories: z.array(z.string().max(100)).max(20),
});
export type FeedRecentItem = z.infer<typeof feedRecentItemSchema>;

export const feedRecentItemsSchema = z.object({
  /** The RSS file read, or null when the feed has no RSS output this deployment reads (then no items). */
  source: z.string().nullable(),
  items: z.array(feedRecentItemSchema).max(RSS_RECENT_MAX_ITEMS),
});
export type FeedRecentItems = z.infer<typeof feedRecentItemsSchema>;
