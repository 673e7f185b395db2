import { createFileRoute } from "@tanstack/react-router";
import { subscriptionQueryOptions } from "#web/features/email/api";
import { UnsubscribePage } from "#web/features/email/components/SubscriptionPages";
import { tokenSearch } from "#web/features/email/search";

export const Route = createFileRoute("/email/unsubscribe")({
  validateSearch: tokenSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps: { token } }) => {
    // A head start only: the page runs the same query and shows its own loading and gone states.
    if (token) void queryClient.prefetchQuery(subscriptionQueryOptions(token)).catch(() => undefined);
  },
  component: () => <UnsubscribePage token={Route.useSearch().token} />,
});
