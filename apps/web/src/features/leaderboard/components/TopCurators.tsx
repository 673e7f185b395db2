import { splitHandleKey } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "#web/components/ui/alert";
import { Avatar } from "#web/components/ui/avatar";
import { Handle } from "#web/components/ui/handle";
import { Skeleton } from "#web/components/ui/skeleton";
import {
  type TopCuratorsOptions,
  topCurators,
  topCuratorsLimit,
  topCuratorsQueryOptions,
} from "#web/features/leaderboard/api";
import { OtherHandles } from "./OtherHandles";
import { RankBadge } from "./RankBadge";

/**
 * The all-time top curators, highest points first: every feed on Explore (10), one feed's own count on its
 * page (`feedId`, 5). Sorted by points before being cut to the limit.
 */
export function TopCurators({ feedId, limit }: TopCuratorsOptions = {}) {
  const size = topCuratorsLimit({ feedId, limit });
  const { data, status } = useQuery({
    ...topCuratorsQueryOptions({ feedId, limit: size }),
    select: (entries) => topCurators(entries, size, feedId),
  });

  if (status === "pending") {
    return (
      <ol className="flex flex-col gap-1" aria-busy="true" aria-label="Loading curators">
        {Array.from({ length: Math.min(size, 5) }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <li key={index} className="flex items-center gap-3 px-2 py-2">
            <Skeleton className="size-8 rounded-full" />
            <Skeleton className="h-4 flex-1" />
          </li>
        ))}
      </ol>
    );
  }
  if (status === "error") {
    return <Alert>Failed to load curators</Alert>;
  }
  if (data.length === 0) {
    return <p className="px-2 py-4 text-sm text-muted">No curators found</p>;
  }

  return (
    <ol className="flex flex-col gap-0.5" data-testid="top-curators">
      {data.map(({ entry, points }, index) => (
        <li key={entry.curatorId} className="flex items-center gap-3 rounded-md px-2 py-2">
          <RankBadge rank={index + 1} />
          <Avatar name={splitHandleKey(entry.curatorUsername).handle} src={entry.avatarUrl} size={32} />
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <Handle handleKey={entry.curatorUsername} className="text-sm font-medium text-ink" />
            <OtherHandles entry={entry} />
          </div>
          <span className="text-sm text-muted tabular-nums">
            <span className="font-semibold text-ink">{points}</span> {points === 1 ? "point" : "points"}
          </span>
        </li>
      ))}
    </ol>
  );
}
