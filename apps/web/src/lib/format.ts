// Intl formatters are costly to create (tens of ms on a slow phone), and toLocaleString() creates one per call,
// so each kind is made once, on first use, and shared.
let counts: Intl.NumberFormat | undefined;
let dateTimes: Intl.DateTimeFormat | undefined;

/** 12,345 */
export function formatCount(value: number): string {
  counts ??= new Intl.NumberFormat("en");
  return counts.format(value);
}

/** A list's total: 12,345, or 1,000+ when the server counted up to a cap and more match. */
export function formatTotal(value: number, capped: boolean): string {
  return capped ? `${formatCount(value)}+` : formatCount(value);
}

/** Nov 21, 2026, 3:04 PM — for tooltips next to relative times. */
export function formatDateTime(value: string | number | Date): string {
  dateTimes ??= new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
  return dateTimes.format(new Date(value));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const pad2 = (value: number) => String(value).padStart(2, "0");

/**
 * The app's date patterns, in local time: `MMM` (Jan), `d` (day without padding), `yyyy`, `HH` (24-hour),
 * `mm`, `ss`. Written out instead of Intl because Intl's "en" output puts its own commas and "at" between the parts.
 */
export function formatDatePattern(value: string | number | Date, pattern: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const parts: Record<string, string> = {
    MMM: MONTHS[date.getMonth()],
    yyyy: String(date.getFullYear()),
    HH: pad2(date.getHours()),
    mm: pad2(date.getMinutes()),
    ss: pad2(date.getSeconds()),
    d: String(date.getDate()),
  };
  return pattern.replace(/MMM|yyyy|HH|mm|ss|d/g, (token) => parts[token]);
}

/** Nov 3, 2026 14:05:09 — when a processing job started or finished. */
export function formatJobDate(value: string | number | Date): string {
  return formatDatePattern(value, "MMM d, yyyy HH:mm:ss");
}

/** 14:05:09 — when a processing step started or finished. */
export function formatStepTime(value: string | number | Date): string {
  return formatDatePattern(value, "HH:mm:ss");
}
