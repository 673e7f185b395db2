import { createFileRoute, Link, Outlet } from "@tanstack/react-router";
import { buttonClasses } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";

export const Route = createFileRoute("/feed/$feedId/settings")({
  component: FeedSettingsLayout,
});

const settingsButtonClasses = cn(
  buttonClasses("secondary", "sm"),
  "data-[status=active]:border-accent data-[status=active]:bg-accent-soft data-[status=active]:text-accent-strong",
);

function FeedSettingsLayout() {
  const { feedId } = Route.useParams();
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap gap-2">
        <Link
          to="/feed/$feedId/settings"
          params={{ feedId }}
          activeOptions={{ exact: true }}
          className={settingsButtonClasses}
        >
          General
        </Link>
        <Link to="/feed/$feedId/settings/connected" params={{ feedId }} className={settingsButtonClasses}>
          Connected Accounts
        </Link>
        <Link to="/feed/$feedId/settings/email" params={{ feedId }} className={settingsButtonClasses}>
          Email
        </Link>
        <Link to="/feed/$feedId/settings/fediverse" params={{ feedId }} className={settingsButtonClasses}>
          Fediverse
        </Link>
      </div>
      <Outlet />
    </div>
  );
}
