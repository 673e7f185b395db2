import { createFileRoute } from "@tanstack/react-router";
import { useAuthState } from "#web/features/auth/use-auth";
import { ProfileOverview } from "#web/features/profile/components/ProfileOverview";

export const Route = createFileRoute("/profile/overview")({
  component: OverviewTab,
});

function OverviewTab() {
  const { accountId } = useAuthState();
  return accountId ? <ProfileOverview accountId={accountId} /> : null;
}
