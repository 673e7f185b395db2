import type { InputHTMLAttributes } from "react";
import { cn } from "#web/lib/cn";

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <input
      className={cn(
        "h-10 w-full rounded-md border border-line bg-surface px-3 text-sm text-ink shadow-xs transition-colors",
        "placeholder:text-muted focus-visible:border-accent disabled:cursor-not-allowed disabled:opacity-50",
        // Same signal as the textareas: an invalid field has a red border, not only a message under it.
        "aria-invalid:border-red-400",
        className,
      )}
      {...props}
    />
  );
}
