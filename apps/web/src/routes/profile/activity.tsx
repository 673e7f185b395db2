import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/profile/activity")({
  component: () => <PlaceholderSection title="Activity Log">No activity data available</PlaceholderSection>,
});
