import { useCallback, useState } from "react";

/**
 * Whether an image should show, for pictures with a fallback (initials): not once it failed to load. A server-
 * rendered image may fail before the page's code runs, when nobody listens for its error event; the ref looks
 * at it once it is attached, so such an image falls back too instead of staying a broken-image icon.
 */
export function useImageFallback(src: string | null | undefined) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const ref = useCallback((image: HTMLImageElement | null) => {
    const current = image?.getAttribute("src");
    if (image && current && image.complete && image.naturalWidth === 0) setFailedSrc(current);
  }, []);
  return {
    showImage: Boolean(src) && failedSrc !== src,
    imageProps: { ref, onError: () => setFailedSrc(src ?? null) },
  };
}
