/** Pure helpers of the Operations page. */

/** A duration for people: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** A share as a percentage with no more precision than it deserves: "0%", "7%", "66.7%". */
export function formatRate(rate: number): string {
  const tenths = Math.round(rate * 1000) / 10;
  return tenths >= 10 || Number.isInteger(tenths) ? `${Math.round(tenths)}%` : `${tenths.toFixed(1)}%`;
}

/** Whether a failure rate deserves a warning colour: at least half failed, over enough steps to mean it. */
export function isHighRate(row: { failed: number; total: number }, minSteps = 5): boolean {
  return row.total >= minSteps && row.failed / row.total >= 0.5;
}

/** A source's key as a person reads it: `feed:ai:0:1` → "ai · source 1, search 2", `x:mentions:bot` as is. */
export function sourceLabel(sourceKey: string): string {
  const search = /^feed:([^:]+):(\d+):(.+)$/.exec(sourceKey);
  if (!search) return sourceKey;
  const [, feed, source, id] = search;
  const searchName = /^\d+$/.test(id) ? `search ${Number(id) + 1}` : `search ${id}`;
  return `${feed} · source ${Number(source) + 1}, ${searchName}`;
}

/** How far off a time to come is, from `now` (ms): "in 12 min", or "due" once it has come. */
export function untilText(date: string, now: number): string {
  const seconds = (Date.parse(date) - now) / 1000;
  return seconds <= 0 ? "due" : `in ${formatSeconds(seconds)}`;
}
