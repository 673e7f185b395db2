import { createFileRoute } from "@tanstack/react-router";
import { SectionHeader } from "#web/components/ui/section-header";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { fediverseStatusQueryOptions } from "#web/features/fediverse/api";
import { FediversePanel } from "#web/features/fediverse/components/FediversePanel";

export const Route = createFileRoute("/feed/$feedId/settings/fediverse")({
  loader: ({ context: { queryClient }, params: { feedId } }) => {
    // The settings answer 401/403 to anyone but the feed's managers: asked for once someone is signed in.
    void queryClient
      .fetchQuery(currentUserQueryOptions())
      .then((user) => {
        if (user) return queryClient.prefetchQuery(fediverseStatusQueryOptions(feedId));
      })
      .catch(() => undefined);
  },
  component: FediverseSettingsRoute,
});

function FediverseSettingsRoute() {
  const { feedId } = Route.useParams();
  return (
    <section aria-labelledby="fediverse-settings-title" className="flex flex-col gap-4">
      <SectionHeader
        id="fediverse-settings-title"
        title="Fediverse"
        description="Mastodon and other fediverse users follow the feed by its handle."
      />
      <FediversePanel feedId={feedId} />
    </section>
  );
}
