import { type LeaderboardSort, splitHandleKey } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
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
import { cn } from "#web/lib/cn";
import { OtherHandles } from "./OtherHandles";
import { RankBadge } from "./RankBadge";

/**
 * The all-time top curators, highest points first: every feed on Explore (10), one feed's own count on its
 * page (`feedId`, 5). Sorted by points before being cut to the limit. A toggle ranks them by reputation score
 * instead (decisions by others, confidence-weighted; decision 0030).
 */
export function TopCurators({ feedId, limit }: Omit<TopCuratorsOptions, "sort"> = {}) {
  const [sort, setSort] = useState<LeaderboardSort>("submissions");
  const size = topCuratorsLimit({ feedId, limit });
  const { data, status } = useQuery({
    ...topCuratorsQueryOptions({ feedId, limit: size, sort }),
    select: (entries) => topCurators(entries, size, feedId, sort),
  });

  return (
    <div className="flex flex-col gap-2">
      <RankToggle sort={sort} onChange={setSort} />
      <RankedList status={status} data={data} size={size} sort={sort} />
    </div>
  );
}

const TOGGLE: ReadonlyArray<{ value: LeaderboardSort; label: string }> = [
  { value: "submissions", label: "Submissions" },
  { value: "score", label: "Score" },
];

function RankToggle({
  sort,
  onChange,
}: {
  sort: LeaderboardSort;
  onChange: (sort: LeaderboardSort) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Rank curators by"
      className="inline-flex self-start rounded-md border border-line p-0.5"
    >
      {TOGGLE.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={sort === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            "rounded px-2.5 py-1 text-xs font-medium transition-colors",
            sort === option.value ? "bg-ink text-white" : "text-muted hover:bg-zinc-100",
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

interface RankedListProps {
  status: "pending" | "error" | "success";
  data: ReturnType<typeof topCurators> | undefined;
  size: number;
  sort: LeaderboardSort;
}

function RankedList({ status, data, size, sort }: RankedListProps) {
  if (status === "error") {
    return <Alert>Failed to load curators</Alert>;
  }
  if (status === "pending" || !data) {
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
  if (data.length === 0) {
    return <p className="px-2 py-4 text-sm text-muted">No curators found</p>;
  }

  return (
    <ol className="flex flex-col gap-0.5" data-testid="top-curators" data-sort={sort}>
      {data.map(({ entry, points }, index) => (
        <li key={entry.curatorUsername} className="flex items-center gap-3 rounded-md px-2 py-2">
          <RankBadge rank={index + 1} />
          <Avatar name={splitHandleKey(entry.curatorUsername).handle} src={entry.avatarUrl} size={32} />
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <Handle handleKey={entry.curatorUsername} className="text-sm font-medium text-ink" />
            <OtherHandles entry={entry} />
          </div>
          <span className="text-sm text-muted tabular-nums">
            <span className="font-semibold text-ink">{points}</span>{" "}
            {sort === "score" ? "score" : points === 1 ? "point" : "points"}
          </span>
        </li>
      ))}
    </ol>
  );
}
