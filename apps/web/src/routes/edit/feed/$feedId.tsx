import { createFileRoute } from "@tanstack/react-router";
import { EditFeedPage } from "#web/features/feed-editor/components/EditFeedPage";
import { PageContainer } from "#web/features/layout/components/PageContainer";

export const Route = createFileRoute("/edit/feed/$feedId")({
  component: EditFeedRoute,
});

function EditFeedRoute() {
  const { feedId } = Route.useParams();
  return (
    <PageContainer className="max-w-4xl">
      <EditFeedPage feedId={feedId} />
    </PageContainer>
  );
}
