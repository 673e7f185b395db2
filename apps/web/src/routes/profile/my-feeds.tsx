import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "../../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/profile/my-feeds")({
  component: () => (
    <PlaceholderSection title="My Feeds">The feeds you created are on their way.</PlaceholderSection>
  ),
});
