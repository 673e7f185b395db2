import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * True while the server renders and while the browser hydrates that render (every part of it, also the parts React
 * hydrates after the first commit); false in every later render. What only the browser knows (the visitor's
 * session, the clock) waits for false, so hydration reproduces the server's HTML.
 */
export function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}
