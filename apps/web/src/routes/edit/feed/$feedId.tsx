import { createFileRoute } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { EditFeedPage } from "#web/features/feed-editor/components/EditFeedPage";

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
