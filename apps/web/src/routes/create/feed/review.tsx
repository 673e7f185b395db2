import { createFileRoute, Link } from "@tanstack/react-router";
import { ArrowLeftIcon } from "lucide-react";
import { buttonClasses } from "../../../components/ui/button";
import { WizardProgress } from "../../../features/feeds/components/WizardProgress";
import { PlaceholderSection } from "../../../features/layout/components/PlaceholderPage";

export const Route = createFileRoute("/create/feed/review")({
  component: () => (
    <div className="flex flex-col gap-6">
      <WizardProgress step={3} />
      <PlaceholderSection
        title="Feed Review"
        actions={
          <Link to="/create/feed/settings" className={buttonClasses("secondary", "sm")}>
            <ArrowLeftIcon aria-hidden="true" />
            Previous
          </Link>
        }
      >
        Reviewing and creating the feed is on its way.
      </PlaceholderSection>
    </div>
  ),
});
