import { ChevronDownIcon } from "lucide-react";
import { useId } from "react";
import { cn } from "#web/lib/cn";

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

interface SelectProps<T extends string> {
  label: string;
  value: T;
  options: ReadonlyArray<SelectOption<T>>;
  onValueChange: (value: T) => void;
  className?: string;
  disabled?: boolean;
  /** Said under the control, e.g. why it is disabled. */
  hint?: string;
}

/**
 * A labelled single-choice select. Built on the native element rather than a popover listbox: it keeps the
 * phone's own picker, full keyboard and screen-reader support, and costs no JavaScript (a popover select
 * with its positioning engine weighs ~17 KB gzip, a tenth of the page budget).
 */
export function Select<T extends string>({
  label,
  value,
  options,
  onValueChange,
  className,
  disabled,
  hint,
}: SelectProps<T>) {
  const id = useId();
  const hintId = useId();
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          disabled={disabled}
          aria-describedby={hint ? hintId : undefined}
          onChange={(event) => onValueChange(event.target.value as T)}
          className={cn(
            "h-10 w-full cursor-pointer appearance-none rounded-md border border-line bg-surface pr-9 pl-3 text-sm text-ink",
            "shadow-xs transition-colors hover:bg-zinc-50 focus-visible:border-accent",
            "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-muted",
          )}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted"
        />
      </div>
      {hint ? (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
