import { createFileRoute } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { pluginQueryOptions } from "#web/features/plugins/api";
import { EditPluginPage } from "#web/features/plugins/components/EditPluginPage";

export const Route = createFileRoute("/plugin/$pluginId")({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(pluginQueryOptions(params.pluginId));
  },
  component: EditPluginRoute,
});

function EditPluginRoute() {
  const { pluginId } = Route.useParams();
  return (
    <PageContainer className="max-w-3xl">
      <EditPluginPage pluginId={pluginId} />
    </PageContainer>
  );
}
