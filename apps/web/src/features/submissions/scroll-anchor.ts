/** Marks a list entry that can hold the reader's place; its value names the entry across renders. */
export const ANCHOR_ATTRIBUTE = "data-anchor-key";

/** Where the entry the reader is looking at sat in the viewport before the list changed above it. */
export interface ScrollAnchor {
  key: string;
  top: number;
}

function entries(list: HTMLElement): HTMLElement[] {
  return Array.from(list.querySelectorAll<HTMLElement>(`[${ANCHOR_ATTRIBUTE}]`));
}

/**
 * The first entry still (partly) below the top of the viewport, once the reader has scrolled past the list's
 * top. While the list's top is in view there is nothing to hold: new entries appear there, in sight.
 */
export function captureScrollAnchor(list: HTMLElement | null): ScrollAnchor | null {
  if (!list || list.getBoundingClientRect().top >= 0) return null;
  for (const entry of entries(list)) {
    const { top, bottom } = entry.getBoundingClientRect();
    if (bottom > 0) return { key: entry.getAttribute(ANCHOR_ATTRIBUTE) ?? "", top };
  }
  return null;
}

/**
 * How far the anchored entry moved since it was captured: scrolling the window by as much puts it back where the
 * reader saw it. Zero when it is gone (or the browser's own scroll anchoring already held it).
 */
export function anchorShift(list: HTMLElement | null, anchor: ScrollAnchor): number {
  const entry = list
    ? entries(list).find((candidate) => candidate.getAttribute(ANCHOR_ATTRIBUTE) === anchor.key)
    : undefined;
  return entry ? entry.getBoundingClientRect().top - anchor.top : 0;
}
