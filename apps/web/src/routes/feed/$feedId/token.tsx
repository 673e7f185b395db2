import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/token")({
  component: () => <PlaceholderSection title="Token">Feed tokens are coming soon.</PlaceholderSection>,
});
