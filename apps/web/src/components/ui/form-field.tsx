import { cloneElement, type ReactElement, type ReactNode, useId } from "react";
import { cn } from "#web/lib/cn";

interface FormFieldProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  /** One input-like element; it receives the id and the describing ids. */
  children: ReactElement<{ id?: string; "aria-describedby"?: string; "aria-invalid"?: boolean }>;
  className?: string;
  /** Fixed text shown inside the start of the control (the control needs matching left padding). */
  prefix?: string;
}

/** A labelled control with its hint and its validation message, wired for screen readers. */
export function FormField({ label, hint, error, children, className, prefix }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const control = cloneElement(children, {
    id,
    "aria-describedby": describedBy,
    "aria-invalid": error ? true : undefined,
  });
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {prefix ? (
        <div className="relative">
          <span
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted"
          >
            {prefix}
          </span>
          {control}
        </div>
      ) : (
        control
      )}
      {hint ? (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
