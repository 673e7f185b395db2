import type { LeaderboardSort, TimeRange } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { SearchIcon } from "lucide-react";
import { type ReactNode, useMemo, useState } from "react";
import { PageContainer } from "#web/components/layout/PageContainer";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { Select, type SelectOption } from "#web/components/ui/select";
import { feedsQueryOptions } from "#web/features/feeds/api";
import { leaderboardQueryOptions } from "#web/features/leaderboard/api";
import {
  ALL_FEEDS,
  type LeaderboardSearch,
  leaderboardQueryOf,
  type ResolvedLeaderboardSearch,
  resolveLeaderboardSearch,
  toLeaderboardSearch,
} from "#web/features/leaderboard/search";
import {
  DEFAULT_SORT,
  expandableIds,
  filterRows,
  nextSort,
  type SortKey,
  sortRows,
  toRows,
} from "#web/features/leaderboard/table";
import { LeaderboardTable, LeaderboardTableSkeleton } from "./LeaderboardTable";

const TIME_OPTIONS: ReadonlyArray<SelectOption<TimeRange>> = [
  { value: "all", label: "All Time" },
  { value: "month", label: "This Month" },
  { value: "week", label: "This Week" },
  { value: "today", label: "Today" },
];

const SORT_OPTIONS: ReadonlyArray<SelectOption<LeaderboardSort>> = [
  { value: "submissions", label: "Submissions" },
  { value: "score", label: "Score" },
];

interface LeaderboardPageProps {
  search: LeaderboardSearch;
  onSearchChange: (search: LeaderboardSearch) => void;
}

export function LeaderboardPage({ search, onSearchChange }: LeaderboardPageProps) {
  const { data: feeds, isError: feedsFailed } = useQuery(feedsQueryOptions());
  const filters = resolveLeaderboardSearch(search, feeds);
  const leaderboard = useQuery({
    ...leaderboardQueryOptions(leaderboardQueryOf(filters)),
    // A feed in the address is checked against the feed list first (without the list it is trusted).
    enabled: !search.feed || feeds !== undefined || feedsFailed,
  });

  const [text, setText] = useState("");
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());

  const feedNames = useMemo(() => new Map((feeds ?? []).map((feed) => [feed.id, feed.name])), [feeds]);
  const allRows = useMemo(() => toRows(leaderboard.data ?? []), [leaderboard.data]);
  const rows = useMemo(
    () => sortRows(filterRows(allRows, text, feedNames), sort),
    [allRows, text, feedNames, sort],
  );
  const expandable = useMemo(() => expandableIds(allRows), [allRows]);

  const feedOptions: Array<SelectOption<string>> = [
    { value: ALL_FEEDS, label: "All feeds" },
    ...(feeds ?? []).map((feed) => ({ value: feed.id, label: feed.name || `#${feed.id}` })),
  ];
  const change = (patch: Partial<ResolvedLeaderboardSearch>) =>
    onSearchChange(toLeaderboardSearch({ ...filters, ...patch }));

  const toggleExpanded = (curatorId: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(curatorId)) next.add(curatorId);
      return next;
    });

  return (
    <>
      <title>Leaderboard · Curate</title>
      <Hero />
      <PageContainer className="flex flex-col gap-5">
        <div className="grid grid-cols-2 items-start gap-3 lg:grid-cols-[minmax(0,1fr)_14rem_11rem_11rem]">
          <div className="relative col-span-2 self-end lg:col-span-1">
            <SearchIcon
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
            />
            <Input
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Search by curator or feed"
              aria-label="Search by curator or feed"
              className="pl-9"
            />
          </div>
          <Select
            label="Feed"
            value={filters.feed}
            options={feedOptions}
            onValueChange={(feed) => change({ feed })}
          />
          <Select
            label="Time"
            value={filters.timeframe}
            options={TIME_OPTIONS}
            onValueChange={(timeframe) => change({ timeframe })}
            disabled={filters.sort === "score"}
            hint={filters.sort === "score" ? "The score is all-time" : undefined}
          />
          <Select
            label="Rank by"
            value={filters.sort}
            options={SORT_OPTIONS}
            onValueChange={(sort) => change({ sort })}
            className="col-span-2 sm:col-span-1"
          />
        </div>

        {leaderboard.status === "error" ? (
          <Alert layout="block">Error loading leaderboard: {leaderboard.error.message}</Alert>
        ) : leaderboard.status === "pending" ? (
          <LeaderboardTableSkeleton />
        ) : allRows.length === 0 ? (
          <Message>No curator data available.</Message>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-muted" aria-live="polite" data-testid="leaderboard-count">
                {rows.length === allRows.length
                  ? `${allRows.length} ${allRows.length === 1 ? "curator" : "curators"}`
                  : `${rows.length} of ${allRows.length} curators`}
              </p>
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={expandable.length === 0}
                  onClick={() => setExpanded(new Set(expandable))}
                >
                  Expand All
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={expandable.length === 0}
                  onClick={() => setExpanded(new Set())}
                >
                  Collapse All
                </Button>
              </div>
            </div>
            {rows.length === 0 ? (
              <Message>No matching results found.</Message>
            ) : (
              <LeaderboardTable
                rows={rows}
                sort={sort}
                onSort={(key: SortKey) => setSort((current) => nextSort(current, key))}
                expanded={expanded}
                onToggleExpanded={toggleExpanded}
                feedNames={feedNames}
              />
            )}
          </>
        )}
      </PageContainer>
    </>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden border-b border-line bg-surface">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(50rem_16rem_at_50%_-4rem,var(--color-accent-soft),transparent)]"
      />
      <div className="relative mx-auto flex max-w-4xl flex-col items-center px-4 py-10 text-center sm:px-6 sm:py-14">
        <h1 className="text-4xl font-bold text-ink sm:text-5xl">Leaderboard</h1>
        <p className="mt-4 max-w-xl text-base text-muted sm:text-lg">
          Curators ranked by the posts they submit, then by how many are approved — or by their score: how
          often others approve what they find, weighed by how much evidence there is.
        </p>
      </div>
    </section>
  );
}

function Message({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-md border border-line bg-surface px-6 py-12 text-center text-sm text-muted">
      {children}
    </div>
  );
}
