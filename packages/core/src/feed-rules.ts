/** Feed rules free of zod, so any page can use them cheaply. */

/** Feed ids are the lower-cased hashtag. */
export const FEED_ID_PATTERN = /^[a-z0-9_-]+$/;

/** The hidden catch-all feed that takes submissions naming no feed. */
export const ALL_FEED_ID = "all";
export const MIN_POLLING_INTERVAL_MS = 1000;
export const MAX_POLLING_INTERVAL_MS = 7 * 24 * 3600 * 1000;
/** The longest an approval may wait to be undone: longer, and a mistaken approval is better rejected. */
export const MAX_UNDO_WINDOW_SECONDS = 600;
/** What the wizard suggests for a new feed. */
export const SUGGESTED_UNDO_WINDOW_SECONDS = 10;

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

/**
 * The hashtag (feed id) rules in one wording, wherever they are checked: the wizard's first step, the editor and
 * the server's feed contract. The wizard's "at least one" text is the spec's own.
 */
export const FEED_ID_MESSAGES = {
  required: "Please provide at least one hashtag",
  tooLong: `A hashtag may be at most ${FEED_LIMITS.idLength} characters`,
  characters: "A hashtag may only hold letters, digits, - and _",
} as const;

/**
 * The edit page's rules in one wording each, wherever they are checked: the form's fields, the config schema the
 * page checks before saving, and the server. A field and the summary of problems then say the same words.
 */
export const FEED_FORM_MESSAGES = {
  nameRequired: "Feed name is required",
  descriptionRequired: "Description is required",
  pollingInterval: `Polling interval must be a whole number of at least ${MIN_POLLING_INTERVAL_MS} ms`,
  pollingIntervalTooLong: "Polling interval must be at most a week",
  undoWindow: `The undo window is a whole number of seconds from 0 to ${MAX_UNDO_WINDOW_SECONDS}`,
  searchQuery: "Enter a query for this search, or remove it",
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

/** Feed images: what the server stores and the browser checks before any upload (local or Pinata). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOAD_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const UPLOAD_HINT = "PNG, JPEG, GIF or WebP, at most 5 MB. Recommended: square, at least 400x400 px.";

/** Why a chosen file cannot be uploaded, or undefined when it can. */
export function uploadFileError(file: { type: string; size: number }): string | undefined {
  if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(file.type))
    return "Choose a PNG, JPEG, GIF or WebP image.";
  if (file.size > MAX_UPLOAD_BYTES) return "The image is larger than 5 MB.";
  return undefined;
}

/**
 * An image uploaded to this server, as feeds and profiles store it: its path under /uploads, the sha256 of its
 * bytes and their kind (demo artwork is SVG). A path, never an address: the page resolves it against whichever host
 * serves it (a second host name, a new domain, an installation restored elsewhere), and the server resolves it
 * against PUBLIC_URL for readers elsewhere (feed files, link previews).
 */
export const UPLOAD_REFERENCE_PATTERN = /^\/uploads\/[0-9a-f]{64}\.(?:png|jpg|gif|webp|svg)$/;

export function isUploadReference(value: string): boolean {
  return UPLOAD_REFERENCE_PATTERN.test(value);
}

/** The upload a reference names: the hash its file is stored under, or null for anything else. */
export function uploadHashOf(value: string): string | null {
  return isUploadReference(value) ? value.slice("/uploads/".length, "/uploads/".length + 64) : null;
}
