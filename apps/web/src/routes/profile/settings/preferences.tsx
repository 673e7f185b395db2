import { createFileRoute } from "@tanstack/react-router";
import { ComingSoon } from "#web/components/layout/ComingSoon";

export const Route = createFileRoute("/profile/settings/preferences")({
  component: () => (
    <ComingSoon
      title="Preferences"
      plannedFeatures={[
        "Default sort order and status filter for lists",
        "Time zone and date format",
        "Display density and theme",
        "Privacy of your curation activity",
      ]}
    />
  ),
});
