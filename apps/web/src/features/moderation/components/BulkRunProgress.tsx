import type { BulkRun } from "@curate/core";
import { LoaderCircleIcon } from "lucide-react";
import { formatCount } from "#web/lib/format";

const DOING = { approve: "Approving", reject: "Rejecting" } as const;

/**
 * A background bulk decision under way on the curation tab: "Approving 1,234 of 5,000…" with a progress bar, and
 * what was found already decided or gone. It can be left: the tab finds it again.
 */
export function BulkRunProgress({ run }: { run: BulkRun }) {
  const processed = run.decided + run.alreadyDecided + run.failed;
  const percent = run.total ? Math.min(100, Math.round((processed / run.total) * 100)) : 0;
  const label =
    run.state === "queued"
      ? `${DOING[run.action]} ${formatCount(run.total)} posts: starting…`
      : `${DOING[run.action]} ${formatCount(processed)} of ${formatCount(run.total)}…`;
  return (
    <section
      aria-label="Bulk decision in progress"
      data-testid="bulk-run-progress"
      className="sticky bottom-3 z-20 flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 shadow-lg"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <p className="flex items-center gap-2 text-sm font-semibold text-ink" data-testid="bulk-run-label">
          <LoaderCircleIcon className="size-4 animate-spin text-accent" aria-hidden="true" />
          {label}
        </p>
        <p className="text-xs text-muted">
          {run.alreadyDecided ? `${formatCount(run.alreadyDecided)} already decided · ` : ""}
          {run.failed ? `${formatCount(run.failed)} no longer in this feed · ` : ""}
          Runs in the background: you can leave this page.
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={run.total}
        aria-valuenow={processed}
        className="h-2 w-full overflow-hidden rounded-full bg-zinc-100"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width] duration-500 ease-out"
          style={{ width: `${percent}%` }}
        />
      </div>
    </section>
  );
}
