/** Feed rules free of zod, so any page can use them cheaply. */

/** Feed ids are the lower-cased hashtag. */
export const FEED_ID_PATTERN = /^[a-z0-9_-]+$/;

/** The hidden catch-all feed that takes submissions naming no feed. */
export const ALL_FEED_ID = "all";
export const MIN_POLLING_INTERVAL_MS = 1000;

/** The most a feed's config may hold (what any account can make the server store and serve is bounded). */
export const FEED_LIMITS = {
  idLength: 64,
  nameLength: 100,
  descriptionLength: 2000,
  urlLength: 2000,
  admins: 20,
  handlesPerPlatform: 200,
  sources: 5,
  searchesPerSource: 10,
  transformsPerChain: 10,
  distributors: 10,
  recaps: 10,
  configBytes: 64 * 1024,
  configDepth: 16,
} as const;

interface CompletenessFields {
  name?: string;
  description?: string;
  sources?: readonly unknown[];
}

/** A feed is complete when its config has a name, a description and at least one source. */
export function isFeedComplete(config: CompletenessFields | null | undefined): boolean {
  return Boolean(config?.name?.trim() && config?.description?.trim() && (config?.sources?.length ?? 0) > 0);
}

/** A feed id as stored and compared: the hashtag without "#", lower-cased (ids match case-insensitively). */
export function normaliseFeedId(value: string): string {
  return value.trim().replace(/^#+/, "").toLowerCase();
}
