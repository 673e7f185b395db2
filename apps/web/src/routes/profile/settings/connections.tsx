import { createFileRoute } from "@tanstack/react-router";
import { useAuthState } from "#web/features/auth/use-auth";
import { ConnectionsPage } from "#web/features/connections/components/ConnectionsPage";

export const Route = createFileRoute("/profile/settings/connections")({
  component: ConnectionsRoute,
});

function ConnectionsRoute() {
  const { accountId } = useAuthState();
  return accountId ? <ConnectionsPage accountId={accountId} /> : null;
}
