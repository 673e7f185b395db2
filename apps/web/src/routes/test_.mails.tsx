import { createFileRoute } from "@tanstack/react-router";
import { appConfigQueryOptions } from "#web/features/config/api";
import { CaughtMailsPage } from "#web/features/email/components/CaughtMailsPage";
import { caughtMailSearch } from "#web/features/email/search";

export const Route = createFileRoute("/test_/mails")({
  validateSearch: caughtMailSearch,
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(appConfigQueryOptions());
  },
  component: () => {
    const { page, mail } = Route.useSearch();
    return <CaughtMailsPage page={page} mail={mail} />;
  },
});
