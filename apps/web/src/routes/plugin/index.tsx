import { createFileRoute } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { pluginsQueryOptions } from "#web/features/plugins/api";
import { PluginsPage } from "#web/features/plugins/components/PluginsPage";

export const Route = createFileRoute("/plugin/")({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(pluginsQueryOptions({ page: 0 }));
  },
  component: () => (
    <PageContainer>
      <PluginsPage />
    </PageContainer>
  ),
});
