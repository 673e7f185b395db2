import { createFileRoute } from "@tanstack/react-router";
import { subscriptionQueryOptions } from "#web/features/email/api";
import { ManageSubscriptionPage } from "#web/features/email/components/SubscriptionPages";
import { tokenSearch } from "#web/features/email/search";

export const Route = createFileRoute("/email/manage")({
  validateSearch: tokenSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps: { token } }) => {
    // A head start only: the page runs the same query and shows its own loading and gone states.
    if (token) void queryClient.prefetchQuery(subscriptionQueryOptions(token)).catch(() => undefined);
  },
  component: () => <ManageSubscriptionPage token={Route.useSearch().token} />,
});
