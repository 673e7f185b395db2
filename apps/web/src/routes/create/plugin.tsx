import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/create/plugin")({
  component: () => (
    <PlaceholderPage title="Create Plugin">Registering a new plugin is on its way.</PlaceholderPage>
  ),
});
