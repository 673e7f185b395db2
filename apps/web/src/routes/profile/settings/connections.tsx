import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/profile/settings/connections")({
  component: () => (
    <PlaceholderSection title="Connected Accounts">
      Connecting social accounts is on its way.
    </PlaceholderSection>
  ),
});
