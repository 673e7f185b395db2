import type { ReactNode } from "react";
import { cn } from "#web/lib/cn";

const titleClasses = {
  h1: "text-3xl font-bold",
  h2: "text-xl font-bold",
  h3: "text-base font-semibold",
} as const;

interface SectionHeaderProps {
  title: ReactNode;
  /** The heading's id, for the section's aria-labelledby. */
  id?: string;
  /** h1 only for a page's own title; sections inside a layout with its own h1 use h2. */
  as?: keyof typeof titleClasses;
  description?: ReactNode;
  /** Buttons or links that act on the section, placed at the end of the row (wrapping below on phones). */
  actions?: ReactNode;
  className?: string;
}

/** A section's heading row: the title (and a line of description), with its actions to the side. */
export function SectionHeader({ title, id, as = "h2", description, actions, className }: SectionHeaderProps) {
  const Heading = as;
  const heading = (
    // A title may hold a long handle ("Post by @rustweekly@floss.social"): it wraps rather than widen a phone's page.
    <Heading id={id} className={cn(titleClasses[as], "[overflow-wrap:anywhere]")}>
      {title}
    </Heading>
  );
  return (
    <div className={cn("flex flex-wrap items-center justify-between gap-4", className)}>
      {description ? (
        <div className="min-w-0">
          {heading}
          <p className="mt-1 text-sm text-muted">{description}</p>
        </div>
      ) : (
        heading
      )}
      {actions}
    </div>
  );
}
