import { createFileRoute, Link, Outlet } from "@tanstack/react-router";
import { buttonClasses } from "../../../../components/ui/button";

export const Route = createFileRoute("/feed/$feedId/settings")({
  component: FeedSettingsLayout,
});

const inactive = buttonClasses("secondary", "sm");
const active = "!border-accent !bg-accent-soft !text-accent-strong";

function FeedSettingsLayout() {
  const { feedId } = Route.useParams();
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap gap-2">
        <Link
          to="/feed/$feedId/settings"
          params={{ feedId }}
          activeOptions={{ exact: true }}
          className={inactive}
          activeProps={{ className: active, "aria-current": "page" }}
        >
          General
        </Link>
        <Link
          to="/feed/$feedId/settings/connected"
          params={{ feedId }}
          className={inactive}
          activeProps={{ className: active, "aria-current": "page" }}
        >
          Connected Accounts
        </Link>
      </div>
      <Outlet />
    </div>
  );
}
