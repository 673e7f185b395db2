import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "#web/components/layout/PlaceholderPage";

export const Route = createFileRoute("/plugin/$pluginId")({
  component: () => <PlaceholderPage title="Edit Plugin">Editing a plugin is on its way.</PlaceholderPage>,
});
