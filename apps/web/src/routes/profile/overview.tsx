import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "../../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/profile/overview")({
  component: () => (
    <PlaceholderSection title="Overview">
      The feeds you approve for and curate for are on their way.
    </PlaceholderSection>
  ),
});
