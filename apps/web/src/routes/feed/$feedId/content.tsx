import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/content")({
  component: () => (
    <PlaceholderSection title="Recent Content">
      The content this feed has published is on its way.
    </PlaceholderSection>
  ),
});
