import type { LeaderboardEntry } from "@curate/core";
import { Handle } from "#web/components/ui/handle";
import { handlesOf } from "#web/features/leaderboard/table";

/** The other handles of a curator who linked several to one Curate account; their counts are in this entry. */
export function OtherHandles({ entry }: { entry: LeaderboardEntry }) {
  const others = handlesOf(entry).slice(1);
  if (others.length === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted" data-testid="linked-handles">
      <span>also</span>
      {others.map((handle) => (
        <Handle key={handle} handleKey={handle} />
      ))}
    </p>
  );
}
