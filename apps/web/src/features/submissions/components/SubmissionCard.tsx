import { type Submission, truncateAtWord } from "@curate/core";
import { Link } from "@tanstack/react-router";
import { ChevronRightIcon, MessageSquareQuoteIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { badgeClasses } from "#web/components/ui/badge";
import { Card } from "#web/components/ui/card";
import { RelativeTime } from "#web/components/ui/relative-time";
import { Skeleton } from "#web/components/ui/skeleton";
import { cn } from "#web/lib/cn";
import { formatDateTime } from "#web/lib/format";
import { STATUS_LABELS, StatusDot, StatusPill } from "./StatusPill";

export function postUrl(username: string, tweetId: string): string {
  return `https://x.com/${encodeURIComponent(username)}/status/${encodeURIComponent(tweetId)}`;
}

interface SubmissionCardProps {
  submission: Submission;
  /** Controls placed under the post, inside the card (moderation on the curation tab). */
  actions?: ReactNode;
  /** A "Details" link to the submission's own page (every card but the one on that page). */
  linkToPage?: boolean;
}

export function SubmissionCard({ submission, actions, linkToPage = true }: SubmissionCardProps) {
  const { username, tweetId, curatorUsername, curatorNotes, curatorTweetId } = submission;
  const authorUrl = postUrl(username, tweetId);

  return (
    <Card className="p-4 sm:p-6" data-testid="submission-card" data-status={submission.status}>
      <article aria-label={`Post by @${username}`} className="flex gap-3 sm:gap-4">
        <Avatar name={username} src={submission.authorProfileImage} size={40} />
        <div className="min-w-0 flex-1">
          <header className="flex items-start justify-between gap-3">
            <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
              <a
                href={authorUrl}
                target="_blank"
                rel="noreferrer"
                className="truncate font-semibold text-ink hover:text-accent hover:underline"
              >
                @{username}
              </a>
              <a
                href={authorUrl}
                target="_blank"
                rel="noreferrer"
                className="text-sm text-muted hover:underline"
              >
                <RelativeTime date={submission.createdAt} title={formatDateTime(submission.createdAt)} />
              </a>
            </div>
            <div className="flex shrink-0 flex-wrap items-center justify-end gap-1.5">
              <StatusPill status={submission.status} />
              <OtherFeedStatuses submission={submission} />
            </div>
          </header>

          <p
            className="mt-2 text-[15px] leading-relaxed break-words whitespace-pre-line text-ink"
            data-testid="submission-content"
          >
            {truncateAtWord(submission.content)}
          </p>

          {curatorUsername ? (
            <div className="mt-4 rounded-md bg-zinc-50 px-4 py-3 text-sm">
              <p className="flex flex-wrap items-center gap-x-1.5 text-muted">
                <MessageSquareQuoteIcon className="size-4 shrink-0" aria-hidden="true" />
                Curated by
                {curatorTweetId ? (
                  <a
                    href={postUrl(curatorUsername, curatorTweetId)}
                    target="_blank"
                    rel="noreferrer"
                    className="font-medium text-ink hover:text-accent hover:underline"
                  >
                    @{curatorUsername}
                  </a>
                ) : (
                  <span className="font-medium text-ink">@{curatorUsername}</span>
                )}
                <span aria-hidden="true">·</span>
                <RelativeTime date={submission.submittedAt} />
              </p>
              {curatorNotes ? <p className="mt-1.5 break-words text-ink">{curatorNotes}</p> : null}
            </div>
          ) : null}

          <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
            {submission.feeds.length > 0 ? (
              <ul aria-label="Feeds" className="flex flex-wrap gap-2">
                {submission.feeds.map((feed) => (
                  <li key={feed.feedId}>
                    <Link
                      to="/feed/$feedId"
                      params={{ feedId: feed.feedId }}
                      title={feed.feedName ?? undefined}
                      className={cn(badgeClasses("neutral"), "hover:border-accent hover:text-accent-strong")}
                    >
                      <StatusDot status={feed.status} />#{feed.feedId}
                      <span className="sr-only">({STATUS_LABELS[feed.status]})</span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
            {linkToPage ? (
              <Link
                to="/submission/$submissionId"
                params={{ submissionId: tweetId }}
                className="ml-auto inline-flex items-center gap-1 rounded-md text-sm font-medium text-muted hover:text-accent"
                aria-label={`Details of the post by @${username}`}
                data-testid="submission-details-link"
              >
                Details
                <ChevronRightIcon className="size-4" aria-hidden="true" />
              </Link>
            ) : null}
          </div>
          {actions}
        </div>
      </article>
    </Card>
  );
}

/**
 * A submission sent to several feeds has one status per feed; the headline pill alone would say "Approved"
 * while another feed still has it pending, so the feeds that differ are counted beside it.
 */
function OtherFeedStatuses({ submission }: { submission: Submission }) {
  const others = submission.feeds.filter((feed) => feed.status !== submission.status);
  if (others.length === 0) return null;
  const counts = new Map<Submission["status"], string[]>();
  for (const feed of others) counts.set(feed.status, [...(counts.get(feed.status) ?? []), `#${feed.feedId}`]);
  return (
    <>
      {[...counts].map(([status, feeds]) => (
        <span
          key={status}
          className={badgeClasses("neutral")}
          title={`${STATUS_LABELS[status]} in ${feeds.join(", ")}`}
          data-testid="other-feed-status"
        >
          <StatusDot status={status} />
          {`${feeds.length} ${STATUS_LABELS[status].toLowerCase()}`}
        </span>
      ))}
    </>
  );
}

export function SubmissionCardSkeleton() {
  return (
    <Card className="flex gap-4 p-5 sm:p-6">
      <Skeleton className="size-10 rounded-full" />
      <div className="flex flex-1 flex-col gap-3">
        <div className="flex justify-between">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-5 w-20 rounded-full" />
        </div>
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-11/12" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="mt-2 h-14 w-full" />
      </div>
    </Card>
  );
}
