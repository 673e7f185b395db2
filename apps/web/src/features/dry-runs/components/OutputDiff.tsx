import { cn } from "#web/lib/cn";
import { type DiffPart, hasChanges, outputDiff } from "../diff";

const paneClasses =
  "max-h-72 overflow-auto rounded-md border border-line bg-zinc-50 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-ink [overflow-wrap:anywhere]";

interface OutputDiffProps {
  before: unknown;
  after: unknown;
  beforeLabel: string;
  afterLabel: string;
}

/**
 * A step's previous output next to its new one: what the new one drops is struck through in red on the left, what
 * it adds is green on the right (words for text, lines for JSON).
 */
export function OutputDiff({ before, after, beforeLabel, afterLabel }: OutputDiffProps) {
  const parts = outputDiff(before, after);
  const changed = hasChanges(parts);
  return (
    <div className="flex flex-col gap-2" data-testid="output-diff">
      <p className="text-xs text-muted" role="status">
        {changed
          ? "Changes are marked: removed on the left, added on the right."
          : "No change in this step's output."}
      </p>
      <div className="grid gap-3 lg:grid-cols-2">
        <DiffPane label={beforeLabel} parts={parts} side="before" />
        <DiffPane label={afterLabel} parts={parts} side="after" />
      </div>
    </div>
  );
}

function DiffPane({ label, parts, side }: { label: string; parts: DiffPart[]; side: "before" | "after" }) {
  const hidden = side === "before" ? "added" : "removed";
  let offset = 0;
  const shown = parts
    .filter((part) => part.kind !== hidden)
    .map((part) => {
      const key = `${offset}`;
      offset += part.value.length;
      return { part, key };
    });
  return (
    <figure className="flex min-w-0 flex-col gap-1.5">
      <figcaption className="text-xs font-medium text-ink">{label}</figcaption>
      <pre
        className={paneClasses}
        role="region"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to scroll by keyboard
        tabIndex={0}
        aria-label={label}
      >
        {shown.map(({ part, key }) =>
          part.kind === "same" ? (
            <span key={key}>{part.value}</span>
          ) : part.kind === "removed" ? (
            <del key={key} className="bg-red-100 text-red-900 decoration-red-700/60">
              {part.value}
            </del>
          ) : (
            <ins key={key} className={cn("bg-emerald-100 text-emerald-900 no-underline")}>
              {part.value}
            </ins>
          ),
        )}
      </pre>
    </figure>
  );
}
