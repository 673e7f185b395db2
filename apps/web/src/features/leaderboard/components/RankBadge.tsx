import { cn } from "#web/lib/cn";

interface Medal {
  label: string;
  badge: string;
  /** Fill for the colour, a darker outline so the star keeps 3:1 against white. */
  star: string;
}

const podium: Record<number, Medal> = {
  1: {
    label: "gold",
    badge: "bg-amber-100 text-amber-800 ring-amber-300",
    star: "fill-yellow-400 text-amber-600",
  },
  2: {
    label: "silver",
    badge: "bg-zinc-200 text-zinc-700 ring-zinc-300",
    star: "fill-zinc-300 text-zinc-500",
  },
  3: {
    label: "bronze",
    badge: "bg-orange-100 text-orange-800 ring-orange-300",
    star: "fill-amber-700 text-amber-900",
  },
};

/** Gold, silver and bronze for ranks 1–3; nothing for the rest. */
export function medalFor(rank: number): Medal | undefined {
  return podium[rank];
}

export function rankTitle(rank: number): string {
  const medal = podium[rank];
  return medal ? `Rank ${rank} (${medal.label})` : `Rank ${rank}`;
}

/** Ranks 1–3 get gold, silver and bronze; the rest a plain number. */
export function RankBadge({ rank }: { rank: number }) {
  const medal = podium[rank];
  return (
    <span
      className={cn(
        "inline-flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold tabular-nums",
        medal ? `ring-1 ${medal.badge}` : "text-muted",
      )}
      title={rankTitle(rank)}
    >
      {rank}
    </span>
  );
}
