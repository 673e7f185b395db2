import { Outlet } from "@tanstack/react-router";
import { LockIcon } from "lucide-react";
import { PageContainer } from "#web/components/layout/PageContainer";
import { Card } from "#web/components/ui/card";
import { type TabLink, TabNav } from "#web/components/ui/tabs";
import { AuthorizeButton } from "#web/features/auth/components/AuthorizeButton";
import { LoginButton } from "#web/features/auth/components/LoginButton";
import { useAuthState } from "#web/features/auth/use-auth";
import { ProfileCard } from "./ProfileCard";

const PROFILE_TABS: TabLink[] = [
  { label: "Overview", link: { to: "/profile/overview" } },
  { label: "My Feeds", link: { to: "/profile/my-feeds" } },
  { label: "Activity", link: { to: "/profile/activity" } },
  { label: "Settings", link: { to: "/profile/settings" } },
];

/** The profile is for signed-in, authorized users; everyone else is asked to log in first. */
export function ProfileLayout() {
  const { status, accountId } = useAuthState();

  if (status !== "authorized" || !accountId) {
    return (
      <PageContainer>
        <title>Profile · Curate</title>
        <Card className="mx-auto mt-8 flex max-w-md flex-col items-center gap-4 px-6 py-12 text-center">
          <span className="inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent">
            <LockIcon className="size-5" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-bold">Please Login to Continue</h1>
          <p className="text-sm text-muted">
            {status === "connected"
              ? "Your wallet is connected. Authorize the app to open your profile."
              : "Sign in with your NEAR wallet to see your feeds and activity."}
          </p>
          {status === "connected" ? <AuthorizeButton /> : <LoginButton />}
        </Card>
      </PageContainer>
    );
  }

  return (
    <>
      <title>Profile · Curate</title>
      <div className="border-b border-line bg-surface">
        <div className="mx-auto max-w-7xl px-4 pt-8 sm:px-6 lg:px-8">
          <ProfileCard accountId={accountId} />
          <TabNav label="Profile sections" tabs={PROFILE_TABS} className="mt-6" />
        </div>
      </div>
      <PageContainer>
        <Outlet />
      </PageContainer>
    </>
  );
}
