import { createFileRoute, Outlet } from "@tanstack/react-router";
import { PageContainer } from "#web/components/layout/PageContainer";

export const Route = createFileRoute("/create/feed")({
  component: CreateFeedLayout,
});

function CreateFeedLayout() {
  return (
    <PageContainer>
      <div className="mx-auto max-w-3xl">
        <title>Create Feed · Curate</title>
        <h1 className="text-3xl font-bold sm:text-4xl">Create Feed</h1>
        <p className="mt-3 text-muted">
          Create your own autonomous brand. Set up your own feed on Twitter, Farcaster and other platforms
          with automated curation and distribution.
        </p>
        <div className="mt-8">
          <Outlet />
        </div>
      </div>
    </PageContainer>
  );
}
