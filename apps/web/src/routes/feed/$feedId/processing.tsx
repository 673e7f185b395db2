import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/processing")({
  component: () => (
    <PlaceholderSection title="Processing History">
      Processing jobs of approved submissions are on their way.
    </PlaceholderSection>
  ),
});
