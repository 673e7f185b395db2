/**
 * What a channel reads from a distributor's input, and text helpers every channel shares. The input is the running
 * value after the branch's transforms (docs/plugins.md): text (a simple-transform's output) or an object.
 */

/** The parts of an item a channel may show. */
export interface Post {
  /** Text the feed's transforms wrote for the channel: a text input, or an object's `text` (or `template`). */
  text: string | null;
  title: string | null;
  /** `description`, else `summary`, else `content`. */
  body: string | null;
  /** `link`, else `url`, else `source`: http(s) only. */
  link: string | null;
  /** `author` (text or `{ name }`), else `username`. */
  author: string | null;
  /** `image`, else the first image of `media`: http(s) only. */
  image: string | null;
  /** `tags`, else `categories`. */
  tags: string[];
  /** `publishedAt`, else `createdAt`, else `submittedAt` (ISO 8601), when it parses as a date. */
  publishedAt: string | null;
}

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function textOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const cleaned = cleanText(value).trim();
  return cleaned ? cleaned : null;
}

export function httpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2000) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function firstImage(media: unknown): string | null {
  if (!Array.isArray(media)) return null;
  for (const item of media) {
    if (isRecord(item) && (item.type === undefined || item.type === "image" || item.type === "photo")) {
      const url = httpUrl(item.url);
      if (url) return url;
    }
  }
  return null;
}

function dateOf(...values: unknown[]): string | null {
  for (const value of values) {
    if (typeof value !== "string" && typeof value !== "number") continue;
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return null;
}

export function postFrom(input: unknown): Post {
  const fields: Fields = isRecord(input) ? input : {};
  const author = isRecord(fields.author) ? fields.author.name : fields.author;
  const tags = Array.isArray(fields.tags)
    ? fields.tags
    : Array.isArray(fields.categories)
      ? fields.categories
      : [];
  return {
    text: typeof input === "string" ? textOf(input) : (textOf(fields.text) ?? textOf(fields.template)),
    title: textOf(fields.title),
    body: textOf(fields.description) ?? textOf(fields.summary) ?? textOf(fields.content),
    link: httpUrl(fields.link) ?? httpUrl(fields.url) ?? httpUrl(fields.source),
    author: textOf(author) ?? textOf(fields.username),
    image: httpUrl(fields.image) ?? firstImage(fields.media),
    tags: tags.map(textOf).filter((tag): tag is string => tag !== null),
    publishedAt: dateOf(fields.publishedAt, fields.createdAt, fields.submittedAt),
  };
}

/**
 * Bidirectional overrides and isolates (U+202A–202E, U+2066–2069) let a post reorder the text around it — a
 * title that flips the link after it — and control characters have no business in a message: both go. Line
 * breaks are kept, as `\n`.
 */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, "\n")
      .replace(/[\u202A-\u202E\u2066-\u2069]/g, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point here
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
  );
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The user-perceived characters of a text: an emoji with its modifiers, a letter with its accents. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

const ELLIPSIS = "…";

/**
 * `text` cut to at most `max`, counted by `cost` per character (UTF-16 units by default; a channel that escapes
 * passes what a character costs once escaped), with an ellipsis when cut. Cuts fall between characters, never
 * inside an emoji or a surrogate pair, and prefer the last space of the final fifth.
 */
export function cutText(
  text: string,
  max: number,
  cost: (grapheme: string) => number = (g) => g.length,
): string {
  const parts = graphemes(text);
  let total = 0;
  for (const part of parts) total += cost(part);
  if (total <= max) return text;
  const budget = max - cost(ELLIPSIS);
  if (budget <= 0) return max >= cost(ELLIPSIS) ? ELLIPSIS : "";
  let used = 0;
  let end = 0;
  while (end < parts.length && used + cost(parts[end]) <= budget) used += cost(parts[end++]);
  let cut = parts.slice(0, end);
  const space = cut.lastIndexOf(" ");
  if (space > 0 && space >= end * 0.8) cut = cut.slice(0, space);
  return `${cut.join("").trimEnd()}${ELLIPSIS}`;
}

/** `text` in consecutive pieces of at most `size` UTF-16 units, split between characters. */
export function chunkText(text: string, size: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const part of graphemes(text)) {
    if (current.length + part.length > size && current) {
      chunks.push(current);
      current = "";
    }
    current += part;
  }
  if (current) chunks.push(current);
  return chunks;
}
