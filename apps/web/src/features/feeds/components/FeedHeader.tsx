import { type Feed, feedDestinations, feedSources } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { ExternalLinkIcon, RotateCwIcon, TrophyIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge, badgeClasses } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LazyDrawer } from "#web/components/ui/lazy-drawer";
import { Skeleton } from "#web/components/ui/skeleton";
import { appConfigQueryOptions } from "#web/features/config/api";
import { feedQueryOptions } from "#web/features/feeds/api";
import { rssSettingsOf, useFeedRssUrl } from "#web/features/feeds/use-feed-rss-url";
import { EditFeedLink } from "./EditFeedLink";
import { FeedImage } from "./FeedImage";
import { FeedOrigins } from "./FeedOrigins";
import { FeedSetupPanel } from "./FeedSetupPanel";
import { QuarantineNotice } from "./QuarantineNotice";
import { RecentContentCarousel } from "./RecentContentCarousel";
import { XSearchWaitNotice } from "./XSearchWaitNotice";

interface FeedHeaderProps {
  feedId: string;
  /**
   * The feed's Top Curators list, placed beside the header (in a drawer on phones). A slot filled by the route:
   * the leaderboard feature already reads the feed list, so feeds must not import it back.
   */
  topCurators: ReactNode;
  /**
   * Notices for the feed's moderators shown under its name (the failed-jobs badge); a slot filled by the route,
   * so the feeds feature depends on nothing of processing.
   */
  moderatorNotices?: ReactNode;
  /** The content tab lists every item itself, so the carousel of the newest few steps aside there. */
  showRecentContent?: boolean;
  /** Whether the signed-in user may edit the feed: an Edit button, and the set-up prompt's way to the editor. */
  canEdit?: boolean;
}

export function FeedHeader({
  feedId,
  topCurators,
  moderatorNotices,
  showRecentContent = true,
  canEdit = false,
}: FeedHeaderProps) {
  const { data: feed, status, failureCount, isFetching, refetch } = useQuery(feedQueryOptions(feedId));

  if (status === "pending") {
    return (
      <div className="flex items-center gap-5" aria-busy="true">
        <title>{`#${feedId} · Curate`}</title>
        <Skeleton className="size-16 sm:size-20" />
        <div className="flex flex-col gap-2">
          <p className="text-sm text-muted" role="status">
            {failureCount > 0 ? "Retrying…" : "Loading feed data..."}
          </p>
          <Skeleton className="h-7 w-56" />
        </div>
      </div>
    );
  }
  if (status === "error") {
    return (
      <>
        <title>{`#${feedId} · Curate`}</title>
        <Alert className="flex flex-wrap items-center justify-between gap-3">
          <span>Error loading feed information.</span>
          <Button size="sm" variant="secondary" loading={isFetching} onClick={() => void refetch()}>
            <RotateCwIcon aria-hidden="true" />
            Try again
          </Button>
        </Alert>
      </>
    );
  }

  const stream = feed.config.outputs?.stream;
  const header = (
    <div className="flex items-start gap-5">
      <title>{`${feed.name} · Curate`}</title>
      <FeedImage name={feed.name || feed.id} src={feed.image} className="size-16 sm:size-20" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="min-w-0 text-2xl font-bold break-words sm:text-3xl">{feed.name}</h1>
          {canEdit ? <EditFeedLink feedId={feed.id} /> : null}
        </div>
        <p className="mt-0.5 text-sm font-medium text-accent">#{feed.id}</p>
        {feed.description ? (
          <p className="mt-2 max-w-2xl text-muted [overflow-wrap:anywhere]">{feed.description}</p>
        ) : null}
        {feed.config.enabled === false ? (
          <p
            className="mt-3 inline-flex rounded-md border border-amber-200 bg-amber-50 px-3 py-1.5 text-sm font-medium text-amber-900"
            data-testid="feed-disabled"
          >
            This feed is disabled: it accepts no new submissions.
          </p>
        ) : null}
        {feed.quarantine ? <QuarantineNotice quarantine={feed.quarantine} /> : null}
        {feed.xSearchWait ? <XSearchWaitNotice wait={feed.xSearchWait} /> : null}
        {moderatorNotices ? (
          <div className="mt-3 flex flex-wrap gap-2 empty:hidden">{moderatorNotices}</div>
        ) : null}
      </div>
    </div>
  );
  if (!stream?.enabled) {
    return (
      <div className="flex flex-col gap-6">
        {header}
        <FeedSetupPanel feedId={feed.id} canEdit={canEdit} />
      </div>
    );
  }
  return (
    <StreamOverview
      feed={feed}
      header={header}
      topCurators={topCurators}
      showRecentContent={showRecentContent}
    />
  );
}

interface StreamOverviewProps {
  feed: Feed;
  header: ReactNode;
  topCurators: ReactNode;
  showRecentContent: boolean;
}

/** A set-up feed: where it curates from, where it posts to, what it published lately and who curates it. */
function StreamOverview({ feed, header, topCurators, showRecentContent }: StreamOverviewProps) {
  const distributors = feed.config.outputs?.stream?.distribute;
  const { data: appConfig } = useQuery(appConfigQueryOptions());
  const destinations = feedDestinations(distributors, feed.id, {
    ownRssServiceUrl: `${rssSettingsOf(appConfig).publicUrl}/rss`,
  });
  const rssUrl = useFeedRssUrl(feed);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="flex min-w-0 flex-col gap-6">
        {header}
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3 text-sm" data-testid="feed-destinations">
          <FeedOrigins
            feedId={feed.id}
            sources={feedSources(feed.config.sources)}
            networks={appConfig?.networks ?? []}
          />
          {destinations.length ? (
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-muted">Posting to:</span>
              {destinations.map((destination, index) =>
                destination.href ? (
                  <a
                    // biome-ignore lint/suspicious/noArrayIndexKey: a feed may post to two chats of one kind
                    key={index}
                    href={destination.href}
                    target="_blank"
                    rel="noreferrer"
                    className={`${badgeClasses("neutral")} hover:border-accent hover:text-accent`}
                  >
                    {destination.label}
                    <ExternalLinkIcon className="size-3" aria-hidden="true" />
                  </a>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a feed may post to two chats of one kind
                  <Badge key={index}>{destination.label}</Badge>
                ),
              )}
            </div>
          ) : null}
          <div className="lg:hidden">
            <LazyDrawer
              title={`Top Curators #${feed.id}`}
              side="right"
              trigger={(props) => (
                <Button variant="secondary" size="sm" {...props}>
                  <TrophyIcon aria-hidden="true" />
                  Top Curators
                </Button>
              )}
            >
              {topCurators}
            </LazyDrawer>
          </div>
        </div>
        {rssUrl && showRecentContent ? <RecentContentCarousel feedId={feed.id} /> : null}
      </div>
      <Card className="hidden p-4 lg:block">
        <h2 className="px-2 pb-2 text-lg font-semibold">{`Top Curators #${feed.id}`}</h2>
        {topCurators}
      </Card>
    </div>
  );
}
