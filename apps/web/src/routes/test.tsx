import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/test")({
  component: () => (
    <PlaceholderPage title="Create Test Tweet">
      The developer form for test tweets is on its way.
    </PlaceholderPage>
  ),
});
