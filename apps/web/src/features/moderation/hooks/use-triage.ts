import { useCallback, useEffect, useRef, useState } from "react";
import { nextDecidableIndex, resolveTriageKey } from "#web/features/moderation/triage";

export type TriageDecision = "approve" | "reject" | "note" | "select";

interface UseTriageOptions<T> {
  items: readonly T[];
  getId: (item: T) => string;
  /** Whether this user can decide the item now (a moderator, and the item pending). */
  canDecide: (item: T) => boolean;
  onCommand: (command: TriageDecision, item: T) => void;
}

function itemElement(list: HTMLElement | null, id: string) {
  return list?.querySelector<HTMLElement>(`[data-triage-id="${CSS.escape(id)}"]`) ?? null;
}

function reveal(element: HTMLElement) {
  element.focus({ preventScroll: true });
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  element.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" });
}

/**
 * Keyboard triage over a list (j/k move, a/r decide, n note, x select). Items are focusable with a roving tab index; a
 * decision moves on to the next item still to decide, and when the current item leaves the list (a refetch after
 * a decision under the Pending filter) the one that took its place becomes current.
 */
export function useTriage<T>({ items, getId, canDecide, onCommand }: UseTriageOptions<T>) {
  const listRef = useRef<HTMLDivElement>(null);
  const [currentId, setCurrentId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const currentIndex = currentId === null ? -1 : items.findIndex((item) => getId(item) === currentId);

  const focusItem = useCallback((id: string) => {
    setCurrentId(id);
    const element = itemElement(listRef.current, id);
    if (element) reveal(element);
  }, []);

  // The key handler is registered once and reads the latest render through this ref.
  const latest = useRef({ items, currentIndex, getId, canDecide, onCommand });
  latest.current = { items, currentIndex, getId, canDecide, onCommand };

  useEffect(() => {
    if (currentIndex >= 0) {
      lastIndex.current = currentIndex;
      return;
    }
    if (currentId === null || items.length === 0) return;
    const replacement = items[Math.min(lastIndex.current, items.length - 1)];
    const id = getId(replacement);
    setCurrentId(id);
    // Only take focus back when it was lost with the removed item, never from wherever the user put it.
    if (document.activeElement === document.body || document.activeElement === null) {
      const element = itemElement(listRef.current, id);
      if (element) reveal(element);
    }
  }, [currentId, currentIndex, items, getId]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { items, currentIndex, getId, canDecide, onCommand } = latest.current;
      const current = currentIndex >= 0 ? items[currentIndex] : undefined;
      // Deciding needs keyboard focus on the item itself (or inside it), so a stray key elsewhere decides nothing.
      const focused =
        current !== undefined &&
        itemElement(listRef.current, getId(current))?.contains(document.activeElement) === true;
      const command = resolveTriageKey(event, {
        count: items.length,
        index: currentIndex >= 0 ? currentIndex : null,
        canDecide: focused && current !== undefined && canDecide(current),
      });
      if (!command) return;
      event.preventDefault();
      const item = items[command.index];
      if (command.type === "move") {
        focusItem(getId(item));
        return;
      }
      onCommand(command.type, item);
      if (command.type === "note" || command.type === "select") return;
      const next = nextDecidableIndex(items.length, command.index, (index) => canDecide(items[index]));
      if (next !== null) focusItem(getId(items[next]));
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [focusItem]);

  const itemProps = (item: T, index: number) => {
    const id = getId(item);
    const isCurrent = currentIndex >= 0 ? index === currentIndex : index === 0;
    return {
      "data-triage-id": id,
      "data-current": isCurrent || undefined,
      tabIndex: isCurrent ? 0 : -1,
      // Focus moving into an item by Tab or click makes it the current one.
      onFocus: () => setCurrentId(id),
    };
  };

  return { listRef, currentId, itemProps, focusItem };
}
