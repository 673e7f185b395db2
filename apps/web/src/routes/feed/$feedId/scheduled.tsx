import { createFileRoute } from "@tanstack/react-router";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { canModerateQueryOptions } from "#web/features/moderation/api";
import { scheduledChannelsQueryOptions } from "#web/features/schedule/api";
import { ScheduledView } from "#web/features/schedule/components/ScheduledView";

export const Route = createFileRoute("/feed/$feedId/scheduled")({
  codeSplitGroupings: [["loader", "component"]],
  loader: ({ context: { queryClient }, params: { feedId } }) => {
    // Moderators only: the channels are asked for once the check passed. Not awaited, as on the processing tab.
    void queryClient
      .fetchQuery(currentUserQueryOptions())
      .then(async (user) => {
        if (!user) return;
        const access = await queryClient.fetchQuery(canModerateQueryOptions(feedId, user.nearAccountId));
        if (access.canModerate) await queryClient.prefetchQuery(scheduledChannelsQueryOptions(feedId));
      })
      .catch(() => undefined);
  },
  component: ScheduledRoute,
});

function ScheduledRoute() {
  const { feedId } = Route.useParams();
  return <ScheduledView feedId={feedId} />;
}
