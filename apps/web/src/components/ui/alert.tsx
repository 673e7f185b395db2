import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "#web/lib/cn";

// Dark text on a light tint of the same hue: every pair is above 7:1.
const variants = {
  error: "border-red-200 bg-red-50 text-red-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  info: "border-indigo-200 bg-accent-soft text-accent-strong",
} as const;

const layouts = {
  /** A strip within a page or panel; its text flows as one paragraph, links included. */
  inline: "px-4 py-3",
  /** Stands in for a whole list or page section that failed: centred, roomier, room for a retry button. */
  block: "flex flex-col items-center gap-3 px-6 py-10 text-center",
} as const;

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, "title"> {
  variant?: keyof typeof variants;
  layout?: keyof typeof layouts;
  /** A bold first line; the children then give the details. */
  title?: ReactNode;
}

/**
 * A message about the page's own state: a failed load, a refused save, an incomplete step. Errors are
 * announced at once (role="alert"); warnings and notes wait their turn (role="status") unless the caller says
 * otherwise.
 */
export function Alert({
  variant = "error",
  layout = "inline",
  title,
  className,
  children,
  ...props
}: AlertProps) {
  return (
    <div
      role={variant === "error" ? "alert" : "status"}
      className={cn("rounded-md border text-sm", variants[variant], layouts[layout], className)}
      {...props}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {title && children && layout === "inline" ? <div className="mt-1">{children}</div> : children}
    </div>
  );
}
