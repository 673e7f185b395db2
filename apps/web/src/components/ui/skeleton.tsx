import type { HTMLAttributes } from "react";
import { cn } from "#web/lib/cn";

export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-zinc-200/70", className)} {...props} />
  );
}
