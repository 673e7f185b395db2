import { createFileRoute, Outlet } from "@tanstack/react-router";
import { type TabLink, TabNav } from "#web/components/ui/tabs";

export const Route = createFileRoute("/profile/settings")({
  component: ProfileSettingsLayout,
});

const SETTINGS_TABS: TabLink[] = [
  { label: "Connected Accounts", link: { to: "/profile/settings/connections" } },
  { label: "API Tokens", link: { to: "/profile/settings/api-tokens" } },
  { label: "Notifications", link: { to: "/profile/settings/notifications" } },
  { label: "Preferences", link: { to: "/profile/settings/preferences" } },
];

function ProfileSettingsLayout() {
  return (
    <div className="flex flex-col gap-6">
      <div className="border-b border-line">
        <TabNav label="Settings sections" tabs={SETTINGS_TABS} />
      </div>
      <Outlet />
    </div>
  );
}
