import { createFileRoute, Link } from "@tanstack/react-router";
import { PencilIcon } from "lucide-react";
import { buttonClasses } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";

export const Route = createFileRoute("/feed/$feedId/settings/")({
  component: GeneralSettingsRoute,
});

/** General settings live in the feed editor; this section leads there rather than repeating it. */
function GeneralSettingsRoute() {
  const { feedId } = Route.useParams();
  return (
    <section aria-labelledby="general-settings-title" className="flex flex-col gap-4">
      <SectionHeader id="general-settings-title" title="General" />
      <Card className="flex flex-col items-start gap-3 p-5">
        <p className="text-sm text-muted">
          The feed's name, description, image, sources, outputs and approvers are edited in the feed editor
          (its creator and admins only).
        </p>
        <Link to="/edit/feed/$feedId" params={{ feedId }} className={buttonClasses("primary", "sm")}>
          <PencilIcon aria-hidden="true" />
          Open the feed editor
        </Link>
      </Card>
    </section>
  );
}
