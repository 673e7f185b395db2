// Intl formatters are costly to create (tens of ms on a slow phone), and toLocaleString() creates one per call,
// so each kind is made once, on first use, and shared.
let counts: Intl.NumberFormat | undefined;
let dateTimes: Intl.DateTimeFormat | undefined;

/** 12,345 */
export function formatCount(value: number): string {
  counts ??= new Intl.NumberFormat("en");
  return counts.format(value);
}

/** Nov 21, 2026, 3:04 PM — for tooltips next to relative times. */
export function formatDateTime(value: string | number | Date): string {
  dateTimes ??= new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
  return dateTimes.format(new Date(value));
}
