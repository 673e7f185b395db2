import { createFileRoute } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";
import { SubmissionPage } from "#web/features/submission-page/components/SubmissionPage";
import { submissionQueryOptions } from "#web/features/submissions/api";

export const Route = createFileRoute("/submission/$submissionId")({
  codeSplitGroupings: [["loader", "component"]],
  loader: ({ context: { queryClient }, params: { submissionId } }) => {
    void queryClient.prefetchQuery(submissionQueryOptions(submissionId));
  },
  component: SubmissionRoute,
});

function SubmissionRoute() {
  const { submissionId } = Route.useParams();
  return (
    <PageContainer className="max-w-4xl">
      <SubmissionPage submissionId={submissionId} />
    </PageContainer>
  );
}
