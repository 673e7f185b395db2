import { createFileRoute } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { operationsOverviewQueryOptions } from "#web/features/operations/api";
import { OperationsPage } from "#web/features/operations/components/OperationsPage";

export const Route = createFileRoute("/operations")({
  codeSplitGroupings: [["loader", "component"]],
  loader: ({ context: { queryClient } }) => {
    // A head start only: the page shows its own skeleton and its own error (401, 403).
    void queryClient.prefetchQuery(operationsOverviewQueryOptions()).catch(() => undefined);
  },
  component: () => (
    <PageContainer>
      <OperationsPage />
    </PageContainer>
  ),
});
