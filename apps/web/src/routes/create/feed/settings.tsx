import { createFileRoute, Link } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { buttonClasses } from "../../../components/ui/button";
import { WizardProgress } from "../../../features/feeds/components/WizardProgress";
import { PlaceholderSection } from "../../../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/create/feed/settings")({
  component: () => (
    <div className="flex flex-col gap-6">
      <WizardProgress step={2} />
      <PlaceholderSection
        title="Curation Settings"
        actions={
          <Link to="/create/feed" className={buttonClasses("secondary", "sm")}>
            <ArrowLeftIcon aria-hidden="true" />
            Previous
          </Link>
        }
      >
        Choosing the approvers of the feed is on its way.
      </PlaceholderSection>
    </div>
  ),
});
