import { createFileRoute } from "@tanstack/react-router";
import { SectionHeader } from "#web/components/ui/section-header";
import { currentUserQueryOptions } from "#web/features/auth/api";
import { subscriberSummaryQueryOptions } from "#web/features/email/api";
import { EmailOwnerPanel } from "#web/features/email/components/EmailOwnerPanel";

export const Route = createFileRoute("/feed/$feedId/settings/email")({
  loader: ({ context: { queryClient }, params: { feedId } }) => {
    // The numbers answer 401/403 to anyone but the feed's managers, so they are asked for once someone is signed in
    // (never for the anonymous server-rendered page). A head start only: the panel shows its own states.
    void queryClient
      .fetchQuery(currentUserQueryOptions())
      .then((user) => {
        if (user) return queryClient.prefetchQuery(subscriberSummaryQueryOptions(feedId));
      })
      .catch(() => undefined);
  },
  component: EmailSettingsRoute,
});

function EmailSettingsRoute() {
  const { feedId } = Route.useParams();
  return (
    <section aria-labelledby="email-settings-title" className="flex flex-col gap-4">
      <SectionHeader
        id="email-settings-title"
        title="Email newsletter"
        description="Readers subscribe on the feed's page, without an account, and confirm by mail."
      />
      <EmailOwnerPanel feedId={feedId} />
    </section>
  );
}
