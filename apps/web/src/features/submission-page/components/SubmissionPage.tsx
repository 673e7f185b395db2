import { displayHandle, type ModerationRecord, type Submission, type SubmissionFeed } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeftIcon, SendIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Handle } from "#web/components/ui/handle";
import { RelativeTime } from "#web/components/ui/relative-time";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { useCurrentUser } from "#web/features/auth/api";
import { useCanModerate, useModeratesAnyOf } from "#web/features/moderation/api";
import { submissionPublicationsQueryOptions } from "#web/features/publications/api";
import { PublicationList } from "#web/features/publications/components/PublicationList";
import { RetractAction } from "#web/features/publications/components/RetractAction";
import { submissionQueryOptions } from "#web/features/submissions/api";
import { StatusPill } from "#web/features/submissions/components/StatusPill";
import { SubmissionCard, SubmissionCardSkeleton } from "#web/features/submissions/components/SubmissionCard";
import { ApiError } from "#web/lib/api";
import { formatDateTime } from "#web/lib/format";
import { ModerationHistory } from "./ModerationHistory";

/** The submission page: the post, its feeds and statuses, its moderation history, and where it went. */
export function SubmissionPage({ submissionId }: { submissionId: string }) {
  const submission = useQuery(submissionQueryOptions(submissionId));
  return (
    <section aria-labelledby="submission-title" className="flex flex-col gap-8" data-testid="submission-page">
      <title>Submission · Curate</title>
      <div className="flex flex-col gap-2">
        <Link to="/" className="inline-flex w-fit items-center gap-1 text-sm text-muted hover:text-ink">
          <ArrowLeftIcon className="size-4" aria-hidden="true" />
          All submissions
        </Link>
        <SectionHeader
          as="h1"
          id="submission-title"
          title={
            submission.data
              ? `Post by ${displayHandle(submission.data.platform, submission.data.username)}`
              : "Submission"
          }
          description="Its feeds, its moderation history, and where it was published."
        />
      </div>
      {submission.isPending ? (
        <div role="status" aria-label="Loading submission">
          <SubmissionCardSkeleton />
        </div>
      ) : submission.isError ? (
        submission.error instanceof ApiError && submission.error.status === 404 ? (
          <Alert>Submission not found.</Alert>
        ) : (
          <Alert>Error loading submission: {submission.error.message}</Alert>
        )
      ) : (
        <SubmissionDetails submission={submission.data} />
      )}
    </section>
  );
}

function SubmissionDetails({ submission }: { submission: Submission }) {
  return (
    <>
      <SubmissionCard submission={submission} linkToPage={false} />
      <section aria-labelledby="submission-feeds" className="flex flex-col gap-3">
        <SectionHeader id="submission-feeds" title="Feeds" />
        {submission.feeds.length === 0 ? (
          <p className="text-sm text-muted">This post is in no feed.</p>
        ) : (
          <ul className="divide-y divide-line rounded-md border border-line bg-surface">
            {submission.feeds.map((feed) => (
              <FeedRow
                key={feed.feedId}
                feed={feed}
                author={displayHandle(submission.platform, submission.username)}
              />
            ))}
          </ul>
        )}
      </section>
      <ModerationHistory history={submission.moderationHistory} />
      <WhereItWent
        submissionId={submission.tweetId}
        feedIds={submission.feeds.map((feed) => feed.feedId)}
        retractedFeeds={retractedFeeds(submission)}
      />
    </>
  );
}

/** Feeds where the post's latest decision is a retraction: their publications are being taken back. */
function retractedFeeds(submission: Submission): ReadonlySet<string> {
  const latest = new Map<string, ModerationRecord>();
  for (const record of submission.moderationHistory) {
    const known = latest.get(record.feedId);
    if (!known || record.createdAt >= known.createdAt) latest.set(record.feedId, record);
  }
  return new Set([...latest.values()].filter((record) => record.retraction).map((record) => record.feedId));
}

function FeedRow({ feed, author }: { feed: SubmissionFeed; author: string }) {
  const canModerate = useCanModerate(feed.feedId);
  return (
    <li
      className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
      data-testid="submission-feed"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <Link
            to="/feed/$feedId"
            params={{ feedId: feed.feedId }}
            className="font-medium text-ink hover:text-accent hover:underline"
          >
            {feed.feedName ?? `#${feed.feedId}`}
          </Link>
          {feed.feedName ? <span className="text-sm text-muted">#{feed.feedId}</span> : null}
          <StatusPill status={feed.status} />
        </p>
        <p className="mt-0.5 text-sm text-muted">
          {feed.curatorNetwork && feed.curatorHandle ? (
            <>
              Curated by{" "}
              <Handle
                platform={feed.curatorNetwork}
                handle={feed.curatorHandle}
                href={feed.curatorProfileUrl}
                className="align-bottom"
              />{" "}
              ·{" "}
            </>
          ) : null}
          submitted <RelativeTime date={feed.submittedAt} title={formatDateTime(feed.submittedAt)} />
        </p>
      </div>
      {canModerate && feed.status === "approved" ? (
        <RetractAction feedId={feed.feedId} submissionId={feed.submissionId} author={author} />
      ) : null}
    </li>
  );
}

/** Who may read a post's ledger, said to someone who may not (yet). */
function whoMaySee(feedIds: readonly string[], signedIn: boolean): string {
  if (feedIds.length === 0) return "This post is in no feed, so it was published nowhere.";
  const feeds = feedIds.map((id) => `#${id}`);
  const named = feeds.length === 1 ? feeds[0] : `${feeds.slice(0, -1).join(", ")} or ${feeds.at(-1)}`;
  return signedIn
    ? `Only moderators of ${named} can see where it was published.`
    : `Sign in as a moderator of ${named} to see where it was published.`;
}

/** The ledger, for moderators of the post's feeds; others are told who may see it. */
export function WhereItWent({
  submissionId,
  feedIds,
  retractedFeeds,
}: {
  submissionId: string;
  feedIds: readonly string[];
  retractedFeeds: ReadonlySet<string>;
}) {
  const { data: user } = useCurrentUser();
  const access = useModeratesAnyOf(feedIds);
  const [page, setPage] = useState(0);
  const [watching, setWatching] = useState(false);
  // Only a moderator of one of its feeds may read the ledger: nobody else is sent asking for it.
  const ledger = useQuery({
    ...submissionPublicationsQueryOptions(submissionId, page, watching),
    enabled: access === "granted",
  });
  const items = ledger.data?.items ?? [];
  const pagination = ledger.data?.pagination;
  // Polled while a retraction is still removing entries (published in a feed that retracted the post, no outcome yet).
  const removing = items.some(
    (item) => item.status === "published" && retractedFeeds.has(item.feedId) && !item.retractionNote,
  );
  if (removing !== watching) setWatching(removing);
  return (
    <section aria-labelledby="submission-ledger" className="flex flex-col gap-3">
      <SectionHeader
        id="submission-ledger"
        title="Where it went"
        description="Every place it was published, from the publish ledger."
      />
      {access === "checking" || (access === "granted" && ledger.isPending) ? (
        <Card className="flex flex-col gap-3 p-4" role="status" aria-label="Loading publications">
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-5 w-2/3" />
        </Card>
      ) : access === "denied" ? (
        <p className="text-sm text-muted" data-testid="ledger-who-may-see">
          {whoMaySee(feedIds, Boolean(user))}
        </p>
      ) : ledger.isError ? (
        <Alert>Error loading publications: {ledger.error.message}</Alert>
      ) : items.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-muted">
          <SendIcon className="size-4" aria-hidden="true" />
          Not published anywhere in the feeds you moderate.
        </p>
      ) : (
        <>
          <PublicationList
            items={items}
            showFeed
            actions={(publication) => !retractedFeeds.has(publication.feedId)}
          />
          {pagination && (pagination.hasNextPage || page > 0) ? (
            <div className="flex items-center justify-between gap-2 text-sm text-muted">
              <span>
                {pagination.totalCount} {pagination.totalCount === 1 ? "entry" : "entries"}
              </span>
              <div className="flex gap-2">
                <Button size="sm" variant="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={!pagination.hasNextPage}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </Button>
              </div>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
