import { useEffect, useRef } from "react";

/** How far before the end of the list the next page is requested. */
export const LOAD_AHEAD_MARGIN = "100px";

/**
 * Returns a ref for an element placed after the last item; when it comes within 100 px of the viewport and
 * `enabled` holds, `onReach` runs. The observer is rebuilt whenever `enabled` flips, so a sentinel that is
 * still visible after a page arrives asks for the next one straight away.
 */
export function useLoadMoreSentinel<T extends Element>(onReach: () => void, enabled: boolean) {
  const sentinelRef = useRef<T>(null);
  const onReachRef = useRef(onReach);
  onReachRef.current = onReach;

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !enabled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onReachRef.current();
      },
      { rootMargin: `0px 0px ${LOAD_AHEAD_MARGIN} 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [enabled]);

  return sentinelRef;
}
