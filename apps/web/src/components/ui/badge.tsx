import type { HTMLAttributes } from "react";
import { cn } from "#web/lib/cn";

const tones = {
  neutral: "border-line bg-zinc-50 text-zinc-700",
  accent: "border-indigo-200 bg-accent-soft text-accent-strong",
  amber: "border-amber-200 bg-amber-50 text-amber-800",
  orange: "border-orange-200 bg-orange-50 text-orange-800",
  green: "border-emerald-200 bg-emerald-50 text-emerald-800",
  red: "border-red-200 bg-red-50 text-red-800",
} as const;

export type BadgeTone = keyof typeof tones;

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function badgeClasses(tone: BadgeTone = "neutral") {
  return cn(
    "inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap",
    tones[tone],
  );
}

export function Badge({ tone, className, ...props }: BadgeProps) {
  return <span className={cn(badgeClasses(tone), className)} {...props} />;
}
