import { ALL_FEED_ID } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, notFound, Outlet, useMatch } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { type TabLink, TabNav } from "#web/components/ui/tabs";
import { emailStatusQueryOptions } from "#web/features/email/api";
import { SubscribeByEmail } from "#web/features/email/components/SubscribeByEmail";
import { feedQueryOptions } from "#web/features/feeds/api";
import { FeedHeader } from "#web/features/feeds/components/FeedHeader";
import { FeedNotFound } from "#web/features/feeds/components/FeedNotFound";
import { feedTrustQueryOptions } from "#web/features/governance/api";
import { FeedTrust } from "#web/features/governance/components/FeedTrust";
import { TopCurators } from "#web/features/leaderboard/components/TopCurators";
import { useFeedEditorAccess } from "#web/features/moderation/api";
import { LogIntegrityNotice } from "#web/features/moderation-log/components/LogIntegrityNotice";
import { FailedJobsBadge } from "#web/features/processing/components/FailedJobsBadge";
import { QueueHealth } from "#web/features/queues/components/QueueHealth";
import { ApiError } from "#web/lib/api";

export const Route = createFileRoute("/feed/$feedId")({
  // Not awaited: the header shows "Loading feed data..." while the feed is on its way.
  loader: ({ context: { queryClient }, params }) => {
    // The catch-all feed collects everything and belongs to no one: it has no page of its own.
    if (params.feedId.toLowerCase() === ALL_FEED_ID) throw notFound();
    void queryClient.prefetchQuery(feedQueryOptions(params.feedId));
    // Whether the "Subscribe by email" form shows: asked with the feed, not after it.
    void queryClient.prefetchQuery(emailStatusQueryOptions(params.feedId));
    void queryClient.prefetchQuery(feedTrustQueryOptions(params.feedId));
  },
  component: FeedLayout,
  notFoundComponent: FeedRouteNotFound,
});

function FeedRouteNotFound() {
  const { feedId } = Route.useParams();
  return (
    <PageContainer>
      <FeedNotFound feedId={feedId} />
    </PageContainer>
  );
}

const FEED_TABS = [
  ["curation", "Curation"],
  ["content", "Content"],
  ["processing", "Processing"],
  ["scheduled", "Scheduled"],
  ["log", "Moderation log"],
  ["token", "Token"],
  ["proposals", "Proposals"],
  ["points", "Points"],
  ["members", "Members"],
  ["settings", "Settings"],
] as const;

function FeedLayout() {
  const { feedId } = Route.useParams();
  const onContentTab = useMatch({ from: "/feed/$feedId/content", shouldThrow: false }) !== undefined;
  // The curation tab shows the queue's full panel; every other tab its one line.
  const onCurationTab = useMatch({ from: "/feed/$feedId/curation", shouldThrow: false }) !== undefined;
  const feed = useQuery(feedQueryOptions(feedId));
  const canEdit = useFeedEditorAccess(feedId) === "granted";
  if (feed.error instanceof ApiError && feed.error.status === 404) return <FeedRouteNotFound />;
  const tabs: TabLink[] = FEED_TABS.map(([path, label]) => ({
    label,
    link: { to: `/feed/$feedId/${path}`, params: { feedId } },
  }));

  return (
    <>
      <div className="border-b border-line bg-surface">
        <div className="mx-auto max-w-7xl px-4 pt-8 sm:px-6 lg:px-8">
          <FeedHeader
            feedId={feedId}
            topCurators={
              <div className="flex flex-col gap-6">
                <TopCurators feedId={feedId} />
                <FeedTrust feedId={feedId} />
              </div>
            }
            moderatorNotices={<FailedJobsBadge feedId={feedId} />}
            showRecentContent={!onContentTab}
            canEdit={canEdit}
          />
          <SubscribeByEmail feedId={feedId} canEdit={canEdit} />
          <LogIntegrityNotice feedId={feedId} />
          {onCurationTab ? null : (
            <div className="mt-4">
              <QueueHealth feedId={feedId} compact />
            </div>
          )}
          <TabNav label="Feed sections" tabs={tabs} className="mt-6" />
        </div>
      </div>
      <PageContainer>
        <Outlet />
      </PageContainer>
    </>
  );
}
