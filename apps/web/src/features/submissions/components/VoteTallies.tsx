import { type Submission, tallyText } from "@curate/core";
import { UsersIcon } from "lucide-react";
import { shortAccountId } from "#web/lib/account";
import { cn } from "#web/lib/cn";

/** The segments of a meter of `size` approvals, each with a stable name. */
const meter = (size: number) => Array.from({ length: size }, (_, index) => `approval-${index + 1}`);

/**
 * Where a post's votes stand in each feed that decides by a quorum ("2 of 3 approvals: @a, @b"), on its card, its
 * own page and the curation tab. Feeds without a quorum have no tally and show nothing here.
 */
export function VoteTallies({ submission }: { submission: Submission }) {
  const tallied = submission.feeds.flatMap((feed) =>
    feed.tally && (feed.status === "pending" || feed.tally.votes.length > 0)
      ? [{ feedId: feed.feedId, status: feed.status, tally: feed.tally }]
      : [],
  );
  if (tallied.length === 0) return null;
  return (
    <ul aria-label="Votes" className="mt-3 flex flex-col gap-2">
      {tallied.map(({ feedId, status, tally }) => {
        const approvals = tally.votes.filter((vote) => vote.action === "approve").length;
        return (
          <li
            key={feedId}
            className="flex flex-wrap items-center gap-x-2.5 gap-y-1 text-sm"
            data-testid="vote-tally"
            data-feed={feedId}
          >
            <UsersIcon className="size-4 shrink-0 text-muted" aria-hidden="true" />
            {submission.feeds.length > 1 ? <span className="font-medium text-ink">#{feedId}</span> : null}
            <span className="flex items-center gap-1" aria-hidden="true">
              {meter(Math.max(tally.required, approvals)).map((segment, index) => (
                <span
                  key={segment}
                  className={cn(
                    "h-1.5 w-4 rounded-full",
                    index < approvals ? "bg-emerald-600" : "bg-zinc-200",
                  )}
                />
              ))}
            </span>
            <span className={cn("min-w-0 break-words", status === "pending" ? "text-ink" : "text-muted")}>
              {tallyText(
                tally.votes.map((vote) => ({ ...vote, voter: shortAccountId(vote.voter) })),
                tally.required,
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
