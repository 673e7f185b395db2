import { createFileRoute } from "@tanstack/react-router";
import { appConfigQueryOptions } from "#web/features/config/api";
import { TestTweetPage } from "#web/features/curation/components/TestTweetPage";

export const Route = createFileRoute("/test")({
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(appConfigQueryOptions());
  },
  component: TestTweetPage,
});
