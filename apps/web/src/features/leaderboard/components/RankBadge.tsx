import { cn } from "../../../lib/cn";

const podium: Record<number, { classes: string; label: string }> = {
  1: { classes: "bg-amber-100 text-amber-800 ring-amber-300", label: "gold" },
  2: { classes: "bg-zinc-200 text-zinc-700 ring-zinc-300", label: "silver" },
  3: { classes: "bg-orange-100 text-orange-800 ring-orange-300", label: "bronze" },
};

/** Ranks 1–3 get gold, silver and bronze; the rest a plain number. */
export function RankBadge({ rank }: { rank: number }) {
  const medal = podium[rank];
  return (
    <span
      className={cn(
        "inline-flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold tabular-nums",
        medal ? `ring-1 ${medal.classes}` : "text-muted",
      )}
      title={medal ? `Rank ${rank} (${medal.label})` : `Rank ${rank}`}
    >
      {rank}
    </span>
  );
}
