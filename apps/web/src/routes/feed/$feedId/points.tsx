import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderSection } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/feed/$feedId/points")({
  component: () => <PlaceholderSection title="Points">Curator points are coming soon.</PlaceholderSection>,
});
