import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "../../../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/edit/feed/$feedId")({
  component: () => (
    <PlaceholderPage title="Edit Feed">Editing a feed configuration is on its way.</PlaceholderPage>
  ),
});
