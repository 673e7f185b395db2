import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ExternalToast, toast as sonnerToast } from "sonner";

const loadSonner = () => import("sonner");
const StyledToaster = lazy(() => import("./toaster"));

// The toast library is fetched with the first toast instead of with every page; sonner replays toasts
// raised before its host mounted, so nothing is lost while it loads.
let hostRequested = false;
const hostListeners = new Set<() => void>();

function show(raise: (toast: typeof sonnerToast) => void) {
  if (!hostRequested) {
    hostRequested = true;
    for (const listener of hostListeners) listener();
  }
  void loadSonner().then(({ toast }) => raise(toast));
}

export const toast = {
  message: (message: string, options?: ExternalToast) => show((raise) => raise(message, options)),
  success: (message: string, options?: ExternalToast) => show((raise) => raise.success(message, options)),
  error: (message: string, options?: ExternalToast) => show((raise) => raise.error(message, options)),
};

function subscribe(listener: () => void) {
  hostListeners.add(listener);
  return () => hostListeners.delete(listener);
}

/** Where toasts appear (at most 3, 3 s each); renders nothing until the first toast. */
export function Toaster() {
  const requested = useSyncExternalStore(
    subscribe,
    () => hostRequested,
    () => false,
  );
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <StyledToaster />
    </Suspense>
  );
}
