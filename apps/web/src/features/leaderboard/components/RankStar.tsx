import { StarIcon } from "lucide-react";
import { cn } from "#web/lib/cn";
import { medalFor, rankTitle } from "./RankBadge";

/** The leaderboard's rank: a gold, silver or bronze star beside ranks 1–3, the number alone below. */
export function RankStar({ rank }: { rank: number }) {
  const medal = medalFor(rank);
  return (
    <span
      className="inline-flex items-center gap-2 font-semibold text-ink tabular-nums"
      title={rankTitle(rank)}
    >
      <span className="inline-flex size-5 items-center justify-center">
        {medal ? (
          <StarIcon aria-hidden="true" className={cn("size-5", medal.star)} strokeWidth={1.5} />
        ) : null}
      </span>
      {rank}
      {medal ? <span className="sr-only"> ({medal.label})</span> : null}
    </span>
  );
}
