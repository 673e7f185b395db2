import { BULK_DECISION_LIMIT, BULK_RUN_LIMIT } from "@curate/core";
import { CheckIcon, ListChecksIcon, XIcon } from "lucide-react";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { TOAST_LIFT_VARIABLE } from "#web/components/ui/toast-lift";
import { formatCount } from "#web/lib/format";

interface BulkDecisionBarProps {
  /** Posts picked one by one (checkbox, x, shift-click). */
  selectedCount: number;
  /** Every pending post the current search matches, on the server; null while unknown. */
  matchingCount: number | null;
  /** "Select all N matching" is on: the decision goes to every match, loaded or not. */
  allMatching: boolean;
  busy: boolean;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onDecide: (action: "approve" | "reject", note: string) => void;
}

/** The curation tab's bar for a selection: its size, Approve / Reject with an optional shared note, Clear. */
export function BulkDecisionBar({
  selectedCount,
  matchingCount,
  allMatching,
  busy,
  onSelectAllMatching,
  onClear,
  onDecide,
}: BulkDecisionBarProps) {
  const noteId = useId();
  const [note, setNote] = useState("");
  const bar = useRef<HTMLElement>(null);
  // Toasts (bottom right) would cover the bar's buttons: they rise above it while it is shown.
  useLayoutEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const lift = () => root.style.setProperty(TOAST_LIFT_VARIABLE, `${element.offsetHeight + 24}px`);
    lift();
    const observer = new ResizeObserver(lift);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(TOAST_LIFT_VARIABLE);
    };
  }, []);
  const count = allMatching ? (matchingCount ?? 0) : selectedCount;
  // "Select all N matching" beyond the cap of one call runs in the background (up to its own limit).
  const inBackground = allMatching && count > BULK_DECISION_LIMIT && count <= BULK_RUN_LIMIT;
  const limit = allMatching ? BULK_RUN_LIMIT : BULK_DECISION_LIMIT;
  const tooMany = count > limit;
  const canWidenTo =
    !allMatching && matchingCount !== null && matchingCount > selectedCount ? matchingCount : null;

  return (
    <section
      ref={bar}
      aria-label="Selected posts"
      data-testid="bulk-bar"
      className="sticky bottom-3 z-20 flex flex-col gap-3 rounded-lg border border-line bg-surface p-3 shadow-lg sm:flex-row sm:items-center"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="text-sm font-semibold text-ink" aria-live="polite" data-testid="bulk-count">
          {formatCount(count)} selected
        </p>
        {canWidenTo !== null ? (
          <Button variant="ghost" size="sm" onClick={onSelectAllMatching}>
            <ListChecksIcon aria-hidden="true" />
            Select all {formatCount(canWidenTo)} matching
          </Button>
        ) : null}
        {tooMany ? (
          <p className="text-xs text-red-700" role="alert">
            At most {formatCount(limit)} at once: narrow the search.
          </p>
        ) : inBackground ? (
          <p className="text-xs text-muted" data-testid="bulk-background-hint">
            Runs in the background, with its progress shown here.
          </p>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
        <label htmlFor={noteId} className="sr-only">
          Note for every selected post (optional)
        </label>
        <Input
          id={noteId}
          value={note}
          maxLength={2000}
          placeholder="Note (optional)"
          className="sm:max-w-64"
          onChange={(event) => setNote(event.target.value)}
        />
        <div className="flex gap-2">
          <Button
            size="sm"
            className="flex-1 sm:flex-none"
            disabled={busy || tooMany || count === 0}
            loading={busy}
            onClick={() => onDecide("approve", note)}
          >
            <CheckIcon aria-hidden="true" />
            Approve
          </Button>
          <Button
            size="sm"
            variant="secondary"
            className="flex-1 text-red-700 hover:bg-red-50 sm:flex-none"
            disabled={busy || tooMany || count === 0}
            onClick={() => onDecide("reject", note)}
          >
            <XIcon aria-hidden="true" />
            Reject
          </Button>
          <Button size="sm" variant="ghost" disabled={busy} onClick={onClear}>
            Clear
          </Button>
        </div>
      </div>
    </section>
  );
}
