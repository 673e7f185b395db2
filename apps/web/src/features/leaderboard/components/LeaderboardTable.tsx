import { displayHandle, scorePercent, splitHandleKey } from "@curate/core";
import { Link } from "@tanstack/react-router";
import { ArrowDownIcon, ArrowUpIcon, ChevronsUpDownIcon } from "lucide-react";
import { useId } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { Handle } from "#web/components/ui/handle";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import {
  ariaSort,
  COLLAPSED_FEED_ROWS,
  type LeaderboardRow,
  type SortKey,
  type SortState,
} from "#web/features/leaderboard/table";
import { cn } from "#web/lib/cn";
import { formatCount } from "#web/lib/format";
import { OtherHandles } from "./OtherHandles";
import { RankStar } from "./RankStar";

/** What "14 / 38" beside a feed means, said once in the column header. */
const FEED_SHARE_HINT = "curator's / all submissions in the feed";
/** What the score is, said once in the column header. */
const SCORE_HINT = "approvals by others, confidence-weighted";

const COLUMNS: ReadonlyArray<{ key: SortKey; label: string; className?: string; hint?: string }> = [
  { key: "rank", label: "Rank", className: "w-24" },
  { key: "username", label: "Username" },
  { key: "approvalRate", label: "Approval Rate", className: "w-40" },
  { key: "score", label: "Score", className: "w-36", hint: SCORE_HINT },
  { key: "submissions", label: "Submissions", className: "w-32" },
  { key: "topFeeds", label: "Top Feeds", className: "w-[22rem]", hint: FEED_SHARE_HINT },
];

// Wide enough for the Top Feeds rows to stay legible; narrower screens scroll the table sideways.
const TABLE_MIN_WIDTH = "min-w-[60rem]";

interface LeaderboardTableProps {
  rows: readonly LeaderboardRow[];
  sort: SortState;
  onSort: (key: SortKey) => void;
  expanded: ReadonlySet<string>;
  onToggleExpanded: (curatorId: string) => void;
  feedNames: ReadonlyMap<string, string>;
}

export function LeaderboardTable(props: LeaderboardTableProps) {
  return (
    <>
      <div className="hidden md:block">
        <WideLeaderboardTable {...props} />
      </div>
      <LeaderboardCards {...props} />
    </>
  );
}

/**
 * Phones get one readable card per curator (rank, curator, rate, submissions, feeds) instead of a table to
 * scroll sideways; the sort keeps working through the same state.
 */
function LeaderboardCards({
  rows,
  sort,
  onSort,
  expanded,
  onToggleExpanded,
  feedNames,
}: LeaderboardTableProps) {
  const sortOptions = COLUMNS.filter((column) => column.key !== "topFeeds");
  return (
    <div className="flex flex-col gap-3 md:hidden" data-testid="leaderboard-cards">
      <div
        className="flex flex-wrap items-center gap-1.5 text-xs text-muted"
        role="group"
        aria-label="Sort by"
      >
        <span>Sort by</span>
        {sortOptions.map((column) => {
          const direction = ariaSort(sort, column.key);
          const Icon =
            direction === "ascending" ? ArrowUpIcon : direction === "descending" ? ArrowDownIcon : null;
          return (
            <button
              key={column.key}
              type="button"
              aria-pressed={direction !== "none"}
              onClick={() => onSort(column.key)}
              className={cn(
                "inline-flex items-center gap-1 rounded-full border border-line px-2.5 py-1 font-medium",
                direction !== "none" ? "border-accent text-ink" : "hover:text-ink",
              )}
            >
              {column.label}
              {Icon ? <Icon aria-hidden="true" className="size-3" /> : null}
            </button>
          );
        })}
      </div>
      <ol className="flex flex-col gap-3" aria-label="Curators ranked by submissions, then approvals">
        {rows.map((row) => (
          <li
            key={row.entry.curatorUsername}
            data-testid="leaderboard-card"
            data-rank={row.rank}
            data-curator={row.entry.curatorUsername}
            className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4"
          >
            <div className="flex items-center gap-3">
              <RankStar rank={row.rank} />
              <Avatar
                name={splitHandleKey(row.entry.curatorUsername).handle}
                src={row.entry.avatarUrl}
                size={32}
              />
              <div className="flex min-w-0 flex-col">
                <Handle handleKey={row.entry.curatorUsername} className="font-medium text-ink" />
                <OtherHandles entry={row.entry} />
              </div>
            </div>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-muted uppercase">Approval Rate</dt>
                <dd className="mt-1">
                  <ApprovalRate row={row} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-muted uppercase">Score</dt>
                <dd className="mt-1">
                  <ReputationScore row={row} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-muted uppercase">Submissions</dt>
                <dd className="mt-1 font-semibold tabular-nums">{formatCount(row.entry.submissionCount)}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-muted uppercase">
                  Top Feeds <span className="normal-case">({FEED_SHARE_HINT})</span>
                </dt>
                <dd className="mt-1">
                  <TopFeeds
                    row={row}
                    expanded={expanded.has(row.entry.curatorId)}
                    onToggle={() => onToggleExpanded(row.entry.curatorId)}
                    feedNames={feedNames}
                  />
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ol>
    </div>
  );
}

function WideLeaderboardTable({
  rows,
  sort,
  onSort,
  expanded,
  onToggleExpanded,
  feedNames,
}: LeaderboardTableProps) {
  return (
    <Table className={TABLE_MIN_WIDTH} data-testid="leaderboard-table">
      <caption className="sr-only">Curators ranked by submissions, then approvals</caption>
      <TableHeader>
        <tr>
          {COLUMNS.map((column) => (
            <SortableHead
              key={column.key}
              label={column.label}
              hint={column.hint}
              className={column.className}
              direction={ariaSort(sort, column.key)}
              onSort={() => onSort(column.key)}
            />
          ))}
        </tr>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <LeaderboardTableRow
            key={row.entry.curatorUsername}
            row={row}
            expanded={expanded.has(row.entry.curatorId)}
            onToggleExpanded={() => onToggleExpanded(row.entry.curatorId)}
            feedNames={feedNames}
          />
        ))}
      </TableBody>
    </Table>
  );
}

interface SortableHeadProps {
  label: string;
  hint?: string;
  className?: string;
  direction: "ascending" | "descending" | "none";
  onSort: () => void;
}

/** The header cell carries aria-sort; the button inside makes it reachable and operable by keyboard. */
function SortableHead({ label, hint, className, direction, onSort }: SortableHeadProps) {
  const Icon =
    direction === "ascending" ? ArrowUpIcon : direction === "descending" ? ArrowDownIcon : ChevronsUpDownIcon;
  return (
    <TableHead aria-sort={direction} className={className}>
      <button
        type="button"
        onClick={onSort}
        className={cn(
          "-mx-2 -my-1 inline-flex items-center gap-1.5 rounded-md px-2 py-1 font-medium tracking-wide whitespace-nowrap uppercase",
          "transition-colors hover:bg-zinc-200/60 hover:text-ink",
          direction !== "none" && "text-ink",
        )}
      >
        {label}
        <Icon aria-hidden="true" className={cn("size-3.5", direction === "none" && "opacity-60")} />
      </button>
      {/* Each count also reads out in full, so the visible hint stays out of the column's accessible name. */}
      {hint ? (
        <span aria-hidden="true" className="ml-2 font-normal normal-case">
          ({hint})
        </span>
      ) : null}
    </TableHead>
  );
}

interface LeaderboardTableRowProps {
  row: LeaderboardRow;
  expanded: boolean;
  onToggleExpanded: () => void;
  feedNames: ReadonlyMap<string, string>;
}

function LeaderboardTableRow({ row, expanded, onToggleExpanded, feedNames }: LeaderboardTableRowProps) {
  const { entry } = row;
  return (
    <TableRow
      data-testid="leaderboard-row"
      data-rank={row.rank}
      data-curator={entry.curatorUsername}
      className="align-top"
    >
      <TableCell className="align-top">
        <RankStar rank={row.rank} />
      </TableCell>
      <TableCell className="align-top">
        {/* Pulled up so the handle sits on the same line as the other cells' first line of text. */}
        <div className="-my-1.5 flex items-center gap-3">
          <Avatar name={splitHandleKey(entry.curatorUsername).handle} src={entry.avatarUrl} size={32} />
          <div className="flex min-w-0 flex-col">
            <Handle handleKey={entry.curatorUsername} className="font-medium text-ink" />
            <OtherHandles entry={entry} />
          </div>
        </div>
      </TableCell>
      <TableCell className="align-top">
        <ApprovalRate row={row} />
      </TableCell>
      <TableCell className="align-top">
        <ReputationScore row={row} />
      </TableCell>
      <TableCell className="align-top font-semibold tabular-nums">
        {formatCount(entry.submissionCount)}
      </TableCell>
      <TableCell className="align-top">
        <TopFeeds row={row} expanded={expanded} onToggle={onToggleExpanded} feedNames={feedNames} />
      </TableCell>
    </TableRow>
  );
}

/** The reputation score out of 100, with the decisions it rests on (decisions by others only). */
function ReputationScore({ row }: { row: LeaderboardRow }) {
  const reputation = row.entry.reputation;
  if (!reputation || reputation.approvedCount + reputation.rejectedCount === 0) {
    return <span className="text-sm text-muted">No decisions yet</span>;
  }
  const decided = reputation.approvedCount + reputation.rejectedCount;
  return (
    <div className="flex flex-col gap-0.5" data-testid="reputation-score">
      <span className="font-semibold tabular-nums">{scorePercent(reputation.score)}</span>
      <span className="text-xs text-muted tabular-nums">
        {reputation.approvedCount} of {decided} approved
        {reputation.retractedCount ? ` · ${reputation.retractedCount} retracted` : ""}
      </span>
    </div>
  );
}

/** The rate, over a bar split in the status colours: approved green, rejected red, still pending amber. */
function ApprovalRate({ row }: { row: LeaderboardRow }) {
  const { submissionCount, approvalCount, rejectionCount } = row.entry;
  const pendingCount = Math.max(0, submissionCount - approvalCount - rejectionCount);
  const share = (count: number) => (submissionCount > 0 ? `${(count / submissionCount) * 100}%` : "0%");
  return (
    <div
      className="flex flex-col gap-1.5"
      title={`${approvalCount} approved, ${rejectionCount} rejected, ${pendingCount} pending`}
    >
      <span className="font-semibold tabular-nums">{row.approvalRate}%</span>
      <span aria-hidden="true" className="flex h-1.5 w-24 overflow-hidden rounded-full bg-zinc-100">
        <span className="bg-emerald-600" style={{ width: share(approvalCount) }} />
        <span className="bg-red-600" style={{ width: share(rejectionCount) }} />
        <span className="bg-amber-400" style={{ width: share(pendingCount) }} />
      </span>
    </div>
  );
}

interface TopFeedsProps {
  row: LeaderboardRow;
  expanded: boolean;
  onToggle: () => void;
  feedNames: ReadonlyMap<string, string>;
}

function TopFeeds({ row, expanded, onToggle, feedNames }: TopFeedsProps) {
  const listId = useId();
  const hidden = row.feeds.length - COLLAPSED_FEED_ROWS;
  const shown = expanded ? row.feeds : row.feeds.slice(0, COLLAPSED_FEED_ROWS);
  if (row.feeds.length === 0) return <span className="text-muted">—</span>;

  return (
    <div className="flex flex-col gap-1.5">
      <ul id={listId} className="flex flex-col gap-1" data-testid="feed-shares">
        {shown.map((feed) => {
          const name = feedNames.get(feed.feedId);
          return (
            <li
              key={feed.feedId}
              className="flex items-baseline justify-between gap-4"
              data-testid="feed-share"
            >
              <Link
                to="/feed/$feedId"
                params={{ feedId: feed.feedId }}
                className="min-w-0 truncate text-ink hover:text-accent hover:underline"
              >
                {name && name !== feed.feedId ? (
                  <>
                    {name} <span className="text-muted">#{feed.feedId}</span>
                  </>
                ) : (
                  `#${feed.feedId}`
                )}
              </Link>
              <span
                className="shrink-0 text-muted tabular-nums"
                title={`${feed.count} of the ${feed.totalInFeed} submissions in #${feed.feedId}`}
                data-testid="feed-share-count"
              >
                <span className="sr-only">{`${feed.count} of the ${feed.totalInFeed} submissions in the feed`}</span>
                <span aria-hidden="true">
                  <span className="font-medium text-ink">{feed.count}</span> / {feed.totalInFeed}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      {hidden > 0 ? (
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-label={
            expanded
              ? `Show fewer feeds for ${handleText(row.entry.curatorUsername)}`
              : `Show all ${row.feeds.length} feeds for ${handleText(row.entry.curatorUsername)}`
          }
          className="self-start rounded-sm text-xs font-medium text-accent hover:underline"
        >
          {expanded ? "Show less" : `+${hidden} more`}
        </button>
      ) : null}
    </div>
  );
}

function handleText(key: string): string {
  const { platform, handle } = splitHandleKey(key);
  return displayHandle(platform, handle);
}

const SKELETON_ROWS = 8;

/** The table's shape while the first answer is on its way. */
export function LeaderboardTableSkeleton() {
  return (
    <Table className={TABLE_MIN_WIDTH} aria-busy="true" aria-label="Loading leaderboard">
      <TableHeader>
        <tr>
          {COLUMNS.map((column) => (
            <TableHead key={column.key} className={column.className}>
              {column.label}
            </TableHead>
          ))}
        </tr>
      </TableHeader>
      <TableBody>
        {Array.from({ length: SKELETON_ROWS }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <tr key={index}>
            <TableCell>
              <Skeleton className="h-5 w-10" />
            </TableCell>
            <TableCell>
              <div className="flex items-center gap-3">
                <Skeleton className="size-8 rounded-full" />
                <Skeleton className="h-4 w-32" />
              </div>
            </TableCell>
            <TableCell>
              <Skeleton className="h-4 w-12" />
            </TableCell>
            <TableCell>
              <Skeleton className="h-4 w-12" />
            </TableCell>
            <TableCell>
              <Skeleton className="h-4 w-10" />
            </TableCell>
            <TableCell>
              <Skeleton className="h-4 w-full" />
            </TableCell>
          </tr>
        ))}
      </TableBody>
    </Table>
  );
}
