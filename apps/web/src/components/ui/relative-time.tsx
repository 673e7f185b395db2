import { relativeTime } from "@curate/core";
import { type ComponentProps, useSyncExternalStore } from "react";
import { useHydrating } from "#web/lib/use-hydrating";

/**
 * One clock for every relative time on the page: a second's tick is enough for "Ns ago", and one shared timer
 * is cheaper than one per card.
 */
const TICK_MS = 1000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The time a server-rendered page was rendered at: the server renders with it, and hydration starts from the
 * same instant (embedded in the page) so "8s ago" reads the same on both sides; the live clock takes over next.
 */
let renderedAt: number | null = null;

export function setRenderClock(at: number | null): void {
  renderedAt = at;
}

/** The current time, re-rendering its user every second while it is on the page. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => renderedAt ?? now,
  );
}

/** "8s ago" that keeps counting while the page stays open. */
export function RelativeTime({
  date,
  ...props
}: { date: string } & Omit<ComponentProps<"time">, "dateTime">) {
  const current = useNow();
  const hydrating = useHydrating();
  // While a server-rendered page hydrates, its render time stands still; afterwards never show a stale "now".
  const at = hydrating ? current : Math.max(current, Date.now());
  return (
    <time dateTime={date} {...props}>
      {relativeTime(date, at)}
    </time>
  );
}
