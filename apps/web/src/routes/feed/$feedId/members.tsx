import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/members")({
  component: () => <PlaceholderSection title="Members">Feed members are coming soon.</PlaceholderSection>,
});
