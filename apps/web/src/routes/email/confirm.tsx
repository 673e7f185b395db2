import { createFileRoute } from "@tanstack/react-router";
import { ConfirmSubscriptionPage } from "#web/features/email/components/SubscriptionPages";
import { tokenSearch } from "#web/features/email/search";

export const Route = createFileRoute("/email/confirm")({
  validateSearch: tokenSearch,
  component: () => <ConfirmSubscriptionPage token={Route.useSearch().token} />,
});
