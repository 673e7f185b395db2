import type { XSearchWait } from "@curate/core";
import { useNow } from "#web/components/ui/relative-time";
import { formatDateTime } from "#web/lib/format";
import { useHydrating } from "#web/lib/use-hydrating";
import { xSearchWaitMessage } from "../x-search-wait";

/** The feed's X searches wait for the shared X allowance: said under the feed's name, with roughly until when. */
export function XSearchWaitNotice({ wait }: { wait: XSearchWait }) {
  const current = useNow();
  const hydrating = useHydrating();
  // A server-rendered page hydrates at its render time, as relative times do, so both sides say the same.
  const at = hydrating ? current : Math.max(current, Date.now());
  return (
    <p
      role="status"
      className="mt-3 max-w-2xl rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 text-sm text-amber-900"
      data-testid="x-search-wait"
    >
      <time dateTime={wait.until} title={formatDateTime(wait.until)}>
        {xSearchWaitMessage(wait, at)}
      </time>
    </p>
  );
}
