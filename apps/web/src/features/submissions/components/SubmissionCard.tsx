import { displayHandle, networkName, type Platform, type Submission, truncateAtWord } from "@curate/core";
import { Link } from "@tanstack/react-router";
import { ChevronRightIcon, ExternalLinkIcon, MessageSquareQuoteIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Avatar } from "#web/components/ui/avatar";
import { badgeClasses } from "#web/components/ui/badge";
import { Card } from "#web/components/ui/card";
import { Handle } from "#web/components/ui/handle";
import { PlatformLabel } from "#web/components/ui/platform-icon";
import { RelativeTime } from "#web/components/ui/relative-time";
import { Skeleton } from "#web/components/ui/skeleton";
import { cn } from "#web/lib/cn";
import { formatDateTime } from "#web/lib/format";
import { STATUS_LABELS, StatusDot, StatusPill } from "./StatusPill";
import { VoteTallies } from "./VoteTallies";

/** An X post's address, for a curator's reply that is known by its id alone. */
export function postUrl(username: string, tweetId: string): string {
  return `https://x.com/${encodeURIComponent(username)}/status/${encodeURIComponent(tweetId)}`;
}

/** The post's own address, when it is one a browser should open (never a script or data URL from a feed). */
function originalUrl(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** A curator's reply on X links to that reply; elsewhere the curator's profile is the link. */
function curatorLink(
  network: Platform,
  handle: string,
  profile: string | null,
  curatorTweetId: string | null,
): string | null {
  return network === "twitter" && curatorTweetId ? postUrl(handle, curatorTweetId) : profile;
}

interface SubmissionCardProps {
  submission: Submission;
  /** Controls placed under the post, inside the card (moderation on the curation tab). */
  actions?: ReactNode;
  /** A "Details" link to the submission's own page (every card but the one on that page). */
  linkToPage?: boolean;
}

export function SubmissionCard({ submission, actions, linkToPage = true }: SubmissionCardProps) {
  const { platform, username, tweetId, curatorNetwork, curatorHandle, curatorNotes, curatorTweetId } =
    submission;
  const author = displayHandle(platform, username);
  const displayName =
    submission.authorDisplayName && submission.authorDisplayName !== username
      ? submission.authorDisplayName
      : null;
  const original = originalUrl(submission.url);
  // A blog post is on a site, not "on RSS".
  const place = networkName(platform, original);
  const time = <RelativeTime date={submission.createdAt} title={formatDateTime(submission.createdAt)} />;

  return (
    <Card
      className="p-4 sm:p-6"
      data-testid="submission-card"
      data-status={submission.status}
      data-platform={platform}
    >
      <article aria-label={`Post by ${author}`} className="flex gap-3 sm:gap-4">
        <Avatar name={displayName ?? username} src={submission.authorProfileImage} size={40} />
        <div className="min-w-0 flex-1">
          {/* On phones the network and time run under the status too; wider, the status keeps its own column. */}
          <header className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3">
            <p className="flex min-w-0 flex-wrap items-baseline gap-x-2">
              {displayName ? <span className="truncate font-semibold text-ink">{displayName}</span> : null}
              <Handle
                platform={platform}
                handle={username}
                icon={false}
                className={displayName ? "text-sm text-muted" : "font-semibold text-ink"}
              />
            </p>
            <div className="flex flex-wrap items-center justify-end gap-1.5 sm:row-span-2">
              <StatusPill status={submission.status} />
              <OtherFeedStatuses submission={submission} />
            </div>
            <p className="col-span-2 mt-0.5 flex items-center gap-1.5 text-sm text-muted sm:col-span-1">
              <PlatformLabel platform={platform} />
              <span aria-hidden="true">·</span>
              {original ? (
                <a href={original} target="_blank" rel="noopener noreferrer" className="hover:underline">
                  {time}
                </a>
              ) : (
                time
              )}
            </p>
          </header>

          <p
            className="mt-2 text-[15px] leading-relaxed break-words whitespace-pre-line text-ink"
            data-testid="submission-content"
          >
            {truncateAtWord(submission.content)}
          </p>

          {curatorNetwork && curatorHandle ? (
            <div className="mt-4 rounded-md bg-zinc-50 px-4 py-3 text-sm">
              <p className="flex flex-wrap items-center gap-x-1.5 text-muted">
                <MessageSquareQuoteIcon className="size-4 shrink-0" aria-hidden="true" />
                Curated by
                <Handle
                  platform={curatorNetwork}
                  handle={curatorHandle}
                  href={curatorLink(
                    curatorNetwork,
                    curatorHandle,
                    submission.curatorProfileUrl,
                    curatorTweetId,
                  )}
                  className="font-medium text-ink"
                />
                <span aria-hidden="true">·</span>
                <RelativeTime date={submission.submittedAt} />
              </p>
              {curatorNotes ? <p className="mt-1.5 break-words text-ink">{curatorNotes}</p> : null}
            </div>
          ) : null}

          <VoteTallies submission={submission} />

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
            <div className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-1">
              {original ? (
                <a
                  href={original}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-muted hover:text-accent"
                  data-testid="original-post-link"
                >
                  View on {place}
                  <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
                </a>
              ) : null}
              {linkToPage ? (
                <Link
                  to="/submission/$submissionId"
                  params={{ submissionId: tweetId }}
                  className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-muted hover:text-accent"
                  aria-label={`Details of the post by ${author}`}
                  data-testid="submission-details-link"
                >
                  Details
                  <ChevronRightIcon className="size-4" aria-hidden="true" />
                </Link>
              ) : null}
            </div>
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
