import { createFileRoute } from "@tanstack/react-router";
import { ComingSoon } from "#web/components/layout/ComingSoon";

export const Route = createFileRoute("/profile/settings/notifications")({
  component: () => (
    <ComingSoon
      title="Notifications"
      plannedFeatures={[
        "Alerts when a submission you curated is approved or rejected",
        "New submissions waiting in feeds you moderate",
        "Processing failures in feeds you own",
        "A weekly digest of your feeds",
      ]}
    />
  ),
});
