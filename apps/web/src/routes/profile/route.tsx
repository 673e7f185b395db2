import { createFileRoute, Outlet } from "@tanstack/react-router";
import { type TabLink, TabNav } from "../../components/ui/tabs";
import { PageContainer } from "../../features/layout/components/PageContainer";

export const Route = createFileRoute("/profile")({
  component: ProfileLayout,
});

const PROFILE_TABS: TabLink[] = [
  { label: "Overview", link: { to: "/profile/overview" } },
  { label: "My Feeds", link: { to: "/profile/my-feeds" } },
  { label: "Activity", link: { to: "/profile/activity" } },
  { label: "Settings", link: { to: "/profile/settings" } },
];

function ProfileLayout() {
  return (
    <>
      <title>Profile · Curate</title>
      <div className="border-b border-line bg-surface">
        <div className="mx-auto max-w-7xl px-4 pt-8 sm:px-6 lg:px-8">
          <h1 className="text-3xl font-bold">Profile</h1>
          <TabNav label="Profile sections" tabs={PROFILE_TABS} className="mt-6" />
        </div>
      </div>
      <PageContainer>
        <Outlet />
      </PageContainer>
    </>
  );
}
