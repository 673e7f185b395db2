import { createFileRoute, Outlet } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { type TabLink, TabNav } from "#web/components/ui/tabs";
import { feedQueryOptions } from "#web/features/feeds/api";
import { FeedHeader } from "#web/features/feeds/components/FeedHeader";
import { TopCurators } from "#web/features/leaderboard/components/TopCurators";
import { FailedJobsBadge } from "#web/features/processing/components/FailedJobsBadge";

export const Route = createFileRoute("/feed/$feedId")({
  loader: ({ context: { queryClient }, params }) =>
    queryClient.prefetchQuery(feedQueryOptions(params.feedId)),
  component: FeedLayout,
});

const FEED_TABS = [
  ["curation", "Curation"],
  ["content", "Content"],
  ["processing", "Processing"],
  ["token", "Token"],
  ["proposals", "Proposals"],
  ["points", "Points"],
  ["members", "Members"],
  ["settings", "Settings"],
] as const;

function FeedLayout() {
  const { feedId } = Route.useParams();
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
            topCurators={<TopCurators feedId={feedId} />}
            moderatorNotices={<FailedJobsBadge feedId={feedId} />}
          />
          <TabNav label="Feed sections" tabs={tabs} className="mt-6" />
        </div>
      </div>
      <PageContainer>
        <Outlet />
      </PageContainer>
    </>
  );
}
