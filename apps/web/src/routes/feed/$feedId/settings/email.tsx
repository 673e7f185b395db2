import { createFileRoute } from "@tanstack/react-router";
import { SectionHeader } from "#web/components/ui/section-header";
import { subscriberSummaryQueryOptions } from "#web/features/email/api";
import { EmailOwnerPanel } from "#web/features/email/components/EmailOwnerPanel";

export const Route = createFileRoute("/feed/$feedId/settings/email")({
  loader: ({ context: { queryClient }, params: { feedId } }) => {
    // A head start only: the panel shows its own states (and a 403 to anyone but the feed's managers).
    void queryClient.prefetchQuery(subscriberSummaryQueryOptions(feedId)).catch(() => undefined);
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
