import { relativeTime, type Submission, truncateAtWord } from "@curate/core";
import { Link } from "@tanstack/react-router";
import { MessageSquareQuoteIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { badgeClasses } from "#web/components/ui/badge";
import { Card } from "#web/components/ui/card";
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
}

export function SubmissionCard({ submission, actions }: SubmissionCardProps) {
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
                <time dateTime={submission.createdAt} title={formatDateTime(submission.createdAt)}>
                  {relativeTime(submission.createdAt)}
                </time>
              </a>
            </div>
            <StatusPill status={submission.status} />
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
                <time dateTime={submission.submittedAt}>{relativeTime(submission.submittedAt)}</time>
              </p>
              {curatorNotes ? <p className="mt-1.5 break-words text-ink">{curatorNotes}</p> : null}
            </div>
          ) : null}

          {submission.feeds.length > 0 ? (
            <ul aria-label="Feeds" className="mt-4 flex flex-wrap gap-2">
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
          {actions}
        </div>
      </article>
    </Card>
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
