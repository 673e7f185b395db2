import { createFileRoute } from "@tanstack/react-router";
import { appConfigQueryOptions } from "#web/features/config/api";
import { TestPostPage } from "#web/features/curation/components/TestPostPage";

export const Route = createFileRoute("/test")({
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(appConfigQueryOptions());
  },
  component: TestPostPage,
});
