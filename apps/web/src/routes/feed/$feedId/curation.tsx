import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "../../../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/curation")({
  component: () => (
    <PlaceholderSection title="Recent Curation">
      Submissions to this feed, with moderation, are on their way.
    </PlaceholderSection>
  ),
});
