import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/settings/")({
  component: () => (
    <PlaceholderSection title="General">General feed settings are on their way.</PlaceholderSection>
  ),
});
