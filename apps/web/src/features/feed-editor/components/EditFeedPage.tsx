import { ALL_FEED_ID } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { LoaderIcon, RotateCwIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { feedQueryOptions } from "#web/features/feeds/api";
import { FeedNotFound } from "#web/features/feeds/components/FeedNotFound";
import { useFeedEditorAccess } from "#web/features/moderation/api";
import { ApiError } from "#web/lib/api";
import { FeedEditor } from "./FeedEditor";

export function EditFeedPage({ feedId }: { feedId: string }) {
  // The catch-all feed has no editor: it is not a feed anyone sets up.
  const hidden = feedId.toLowerCase() === ALL_FEED_ID;
  const {
    data: feed,
    status,
    error,
    failureCount,
    isFetching,
    refetch,
  } = useQuery({ ...feedQueryOptions(feedId), enabled: !hidden });
  const access = useFeedEditorAccess(feedId);
  // A restored version starts the editor again from the restored config (and its new updatedAt).
  const [generation, setGeneration] = useState(0);

  if (hidden) return <FeedNotFound feedId={feedId} />;

  if (status === "pending") {
    return (
      <div className="flex items-center gap-3 py-16 text-muted" aria-busy="true">
        <title>Edit Feed · Curate</title>
        <LoaderIcon className="size-5 animate-spin" aria-hidden="true" />
        <p role="status">{failureCount > 0 ? "Retrying…" : "Loading feed details..."}</p>
      </div>
    );
  }
  if (status === "error") {
    if (error instanceof ApiError && error.status === 404) {
      return <FeedNotFound feedId={feedId} />;
    }
    return (
      <>
        <title>Error Loading Feed · Curate</title>
        <Alert title="Error Loading Feed">
          <p>{error.message}</p>
          <Button
            size="sm"
            variant="secondary"
            className="mt-3"
            loading={isFetching}
            onClick={() => void refetch()}
          >
            <RotateCwIcon aria-hidden="true" />
            Try again
          </Button>
        </Alert>
      </>
    );
  }
  if (access === "checking") {
    return (
      <div className="flex items-center gap-3 py-16 text-muted" aria-busy="true">
        <LoaderIcon className="size-5 animate-spin" aria-hidden="true" />
        <p>Loading feed details...</p>
      </div>
    );
  }
  if (access === "denied") {
    // A form that fails at Save helps no one: say who can edit, and lead back to the feed.
    return (
      <div className="flex flex-col gap-4 py-8" data-testid="edit-not-allowed">
        <title>{`Edit ${feed.name || feed.id} · Curate`}</title>
        <h1 className="text-3xl font-bold break-words">Edit Feed: {feed.name || feed.id}</h1>
        <Alert title="You cannot edit this feed.">
          Only the feed's creator and its admins can change its configuration. Sign in with one of their
          accounts to edit it.
        </Alert>
        <Link
          to="/feed/$feedId"
          params={{ feedId: feed.id }}
          className="text-sm font-medium text-accent hover:underline"
        >
          Back to #{feed.id}
        </Link>
      </div>
    );
  }
  // The editor keeps its working copy across saves and refetches; only another feed (or a restore) starts anew.
  return (
    <FeedEditor
      key={`${feed.id}:${generation}`}
      feed={feed}
      onRestored={() => setGeneration((current) => current + 1)}
    />
  );
}
