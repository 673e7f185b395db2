import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/proposals")({
  component: () => (
    <PlaceholderSection title="Proposals">Community proposals are coming soon.</PlaceholderSection>
  ),
});
