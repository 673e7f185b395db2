/** What a key press on the curation list asks for. */
export type TriageCommand =
  | { type: "move"; index: number }
  | { type: "approve" | "reject" | "note" | "select"; index: number };

export interface TriageKey {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
}

export interface TriageState {
  /** Items currently loaded in the list. */
  count: number;
  /** The item keyboard focus is on, or null before the first move. */
  index: number | null;
  /** Whether the focused item can be decided by this user (a moderator, and the item pending). */
  canDecide: boolean;
}

export const TRIAGE_KEYS = {
  next: "j",
  previous: "k",
  approve: "a",
  reject: "r",
  note: "n",
  select: "x",
} as const;

/** Keys typed into a field, or inside a dialog, belong to that field or dialog, not to the list. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return (
    element.closest(
      "input, textarea, select, [contenteditable=''], [contenteditable='true'], [role=dialog]",
    ) !== null
  );
}

/** Turns a key press into a list command, or null to leave the key to the browser. */
export function resolveTriageKey(event: TriageKey, state: TriageState): TriageCommand | null {
  // Browser and screen-reader shortcuts use modifiers; plain letters are ours.
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  if (isTypingTarget(event.target) || state.count === 0) return null;

  const { index, count } = state;
  switch (event.key) {
    case TRIAGE_KEYS.next:
      return { type: "move", index: index === null ? 0 : Math.min(index + 1, count - 1) };
    case TRIAGE_KEYS.previous:
      return { type: "move", index: index === null ? 0 : Math.max(index - 1, 0) };
    case TRIAGE_KEYS.approve:
    case TRIAGE_KEYS.reject:
    case TRIAGE_KEYS.note:
    case TRIAGE_KEYS.select: {
      if (index === null || !state.canDecide) return null;
      const type =
        event.key === TRIAGE_KEYS.approve
          ? "approve"
          : event.key === TRIAGE_KEYS.reject
            ? "reject"
            : event.key === TRIAGE_KEYS.note
              ? "note"
              : "select";
      return { type, index };
    }
    default:
      return null;
  }
}

/** The first item after `from` that can still be decided, so a decision moves straight on to the next one. */
export function nextDecidableIndex(
  count: number,
  from: number,
  canDecide: (index: number) => boolean,
): number | null {
  for (let index = from + 1; index < count; index++) {
    if (canDecide(index)) return index;
  }
  return null;
}
