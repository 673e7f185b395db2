import type { TextareaHTMLAttributes } from "react";
import { cn } from "#web/lib/cn";

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea
      className={cn(
        "min-h-24 w-full rounded-md border border-line bg-surface px-3 py-2 text-sm text-ink shadow-xs transition-colors",
        "placeholder:text-muted focus-visible:border-accent aria-invalid:border-red-400",
        className,
      )}
      {...props}
    />
  );
}
