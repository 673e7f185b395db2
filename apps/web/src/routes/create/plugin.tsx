import { createFileRoute } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { CreatePluginPage } from "#web/features/plugins/components/CreatePluginPage";

export const Route = createFileRoute("/create/plugin")({
  component: () => (
    <PageContainer className="max-w-3xl">
      <CreatePluginPage />
    </PageContainer>
  ),
});
