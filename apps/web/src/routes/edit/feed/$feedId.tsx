import { createFileRoute } from "@tanstack/react-router";
import { EditFeedPage } from "../../../features/feed-editor/components/EditFeedPage";
import { PageContainer } from "../../../features/layout/components/PageContainer";

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
