import { createFileRoute } from "@tanstack/react-router";
import { apiTokensQueryOptions } from "#web/features/api-tokens/api";
import { ApiTokensPage } from "#web/features/api-tokens/components/ApiTokensPage";
import { authSession } from "#web/features/auth/session";
import { useAuthState } from "#web/features/auth/use-auth";

export const Route = createFileRoute("/profile/settings/api-tokens")({
  loader: ({ context }) => {
    // Only a browser that holds an authorization has tokens to ask for; anyone else is asked to sign in.
    const account = authSession.get().authorizedAccount;
    if (account) void context.queryClient.prefetchQuery(apiTokensQueryOptions(account, 0));
  },
  component: ApiTokensRoute,
});

function ApiTokensRoute() {
  const { accountId } = useAuthState();
  return accountId ? <ApiTokensPage accountId={accountId} /> : null;
}
