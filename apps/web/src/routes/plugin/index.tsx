import { createFileRoute, Link } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { PlaceholderPage } from "#web/components/layout/PlaceholderPage";
import { buttonClasses } from "#web/components/ui/button";

export const Route = createFileRoute("/plugin/")({
  component: PluginsRoute,
});

function PluginsRoute() {
  return (
    <PlaceholderPage
      title="Plugins"
      actions={
        <Link to="/create/plugin" className={buttonClasses("primary")}>
          <PlusIcon aria-hidden="true" />
          Create New Plugin
        </Link>
      }
    >
      The plugin registry is on its way.
    </PlaceholderPage>
  );
}
