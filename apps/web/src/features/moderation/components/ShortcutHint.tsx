import { KeyboardIcon } from "lucide-react";

const SHORTCUTS = [
  ["J", "K", "move"],
  ["A", null, "approve"],
  ["R", null, "reject"],
  ["N", null, "note"],
  ["X", null, "select"],
] as const;

function Key({ children }: { children: string }) {
  return (
    <kbd className="inline-flex h-5 min-w-5 items-center justify-center rounded border border-line bg-surface px-1 font-sans text-[11px] font-semibold text-ink shadow-xs">
      {children}
    </kbd>
  );
}

/** Keyboard triage is for people at a keyboard, so phones do not get the hint. */
export function ShortcutHint() {
  return (
    <p
      className="hidden flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted sm:flex"
      data-testid="shortcut-hint"
    >
      <KeyboardIcon className="size-4" aria-hidden="true" />
      <span className="sr-only">Keyboard shortcuts:</span>
      {SHORTCUTS.map(([first, second, label]) => (
        <span key={label} className="inline-flex items-center gap-1">
          <Key>{first}</Key>
          {second ? (
            <>
              <span aria-hidden="true">/</span>
              <Key>{second}</Key>
            </>
          ) : null}
          {label}
        </span>
      ))}
    </p>
  );
}
