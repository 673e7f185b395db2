import { PLATFORM_LABELS, type Platform } from "@curate/core";
import type { ReactNode } from "react";
import { cn } from "#web/lib/cn";

/** One wing of the butterfly; the mark mirrors it for the other. */
const WING =
  "M12 11.2C10.3 8 6.9 4.6 4.3 4.1 2.9 3.8 2.2 4.6 2.3 6c.1 1.9.8 4.9 2.1 5.7 1.3.8 3.3.8 4.7.5-2.4.8-4.2 2.2-2.8 4.2 1.6 2.4 3.6 1.4 4.8-.6.4-.7.7-1.5.9-2.4z";

// Simple marks of our own, drawn on a 24-unit grid: recognisable at 14–16 px, not the networks' artwork.
const MARKS: Record<Platform, ReactNode> = {
  twitter: (
    <path
      d="M5.5 4.5l13 15m0-15l-13 15"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.6"
      strokeLinecap="round"
    />
  ),
  bluesky: (
    <>
      <path d={WING} fill="currentColor" />
      <path d={WING} fill="currentColor" transform="matrix(-1 0 0 1 24 0)" />
    </>
  ),
  mastodon: (
    <>
      <rect x="3" y="3" width="18" height="15" rx="4.5" fill="currentColor" />
      <path d="M7.5 16.5v4.5l4.5-3.5z" fill="currentColor" />
      <path
        d="M8.5 14V9.8a1.75 1.75 0 0 1 3.5 0V12.5m0-2.7a1.75 1.75 0 0 1 3.5 0V14"
        fill="none"
        stroke="white"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </>
  ),
  telegram: (
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path
        d="M6.3 11.7l10-4c.5-.2 1 .2.9.7l-1.6 7.8c-.1.6-.8.8-1.2.4l-2.6-2-1.4 1.3c-.2.2-.6.1-.6-.2l.1-2.3 4.3-3.9-5.5 3.3-2.4-.8c-.5-.2-.5-.9 0-1.1z"
        fill="white"
      />
    </>
  ),
  rss: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="4.5" fill="currentColor" />
      <circle cx="8.2" cy="15.8" r="1.6" fill="white" />
      <path
        d="M7 11.5a5.5 5.5 0 0 1 5.5 5.5M7 7a10 10 0 0 1 10 10"
        fill="none"
        stroke="white"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </>
  ),
};

/** Each network's own colour, dark enough to stand out at 3:1 or more on white. */
export const PLATFORM_TINTS: Record<Platform, string> = {
  twitter: "text-zinc-900",
  bluesky: "text-[#0a6fe6]",
  mastodon: "text-[#5a3fd6]",
  telegram: "text-[#1a82c2]",
  rss: "text-[#d9480f]",
};

interface PlatformIconProps {
  platform: Platform;
  className?: string;
  /** When a visible label beside the icon already names the network, the icon stays out of the accessible name. */
  decorative?: boolean;
}

/** A network's mark; read out as the network's name unless `decorative`. */
export function PlatformIcon({ platform, className, decorative = false }: PlatformIconProps) {
  const label = PLATFORM_LABELS[platform];
  const classes = cn("size-4 shrink-0", PLATFORM_TINTS[platform], className);
  if (decorative) {
    return (
      <svg viewBox="0 0 24 24" className={classes} data-platform={platform} aria-hidden="true">
        {MARKS[platform]}
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 24 24" className={classes} data-platform={platform} role="img" aria-label={label}>
      {MARKS[platform]}
    </svg>
  );
}

/** The network's mark and its name, as a card shows where a post comes from. */
export function PlatformLabel({ platform, className }: { platform: Platform; className?: string }) {
  return (
    <span
      className={cn("inline-flex items-center gap-1 text-sm text-muted", className)}
      data-testid="platform-label"
      data-platform={platform}
    >
      <PlatformIcon platform={platform} decorative className="size-3.5" />
      {PLATFORM_LABELS[platform]}
    </span>
  );
}
