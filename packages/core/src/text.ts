export const SUBMISSION_PREVIEW_LENGTH = 240;
const ELLIPSIS = "…";

/** Cuts text to at most `max` characters at a word boundary and marks the cut with an ellipsis. */
export function truncateAtWord(text: string, max = SUBMISSION_PREVIEW_LENGTH): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.search(/\s\S*$/);
  const atWord = lastSpace > 0 ? cut.slice(0, lastSpace) : cut;
  return `${atWord.trimEnd()}${ELLIPSIS}`;
}

const UNITS: ReadonlyArray<[limitSeconds: number, unitSeconds: number, suffix: string]> = [
  [60, 1, "s"],
  [3600, 60, "m"],
  [86400, 3600, "h"],
  [7 * 86400, 86400, "d"],
  [30 * 86400, 7 * 86400, "w"],
  [365 * 86400, 30 * 86400, "mo"],
  [Number.POSITIVE_INFINITY, 365 * 86400, "y"],
];

/** "just now" up to 5 s, then Ns, Nm, Nh, Nd, Nw, Nmo, Ny followed by "ago". */
export function relativeTime(date: Date | string | number, now: Date | number = Date.now()): string {
  const then = new Date(date).getTime();
  const nowMs = typeof now === "number" ? now : now.getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.floor((nowMs - then) / 1000);
  if (seconds <= 5) return "just now";
  for (const [limit, unit, suffix] of UNITS) {
    if (seconds < limit) return `${Math.floor(seconds / unit)}${suffix} ago`;
  }
  return "";
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text or an attribute value, safe anywhere in HTML: markup in it is shown as written, never read. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}
