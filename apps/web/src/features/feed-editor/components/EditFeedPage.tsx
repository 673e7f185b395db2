import { useQuery } from "@tanstack/react-query";
import { LoaderIcon } from "lucide-react";
import { Alert } from "#web/components/ui/alert";
import { feedQueryOptions } from "#web/features/feeds/api";
import { ApiError } from "#web/lib/api";
import { FeedEditor } from "./FeedEditor";

export function EditFeedPage({ feedId }: { feedId: string }) {
  const { data: feed, status, error } = useQuery(feedQueryOptions(feedId));

  if (status === "pending") {
    return (
      <div className="flex items-center gap-3 py-16 text-muted" aria-busy="true">
        <LoaderIcon className="size-5 animate-spin" aria-hidden="true" />
        <p>Loading feed details...</p>
      </div>
    );
  }
  if (status === "error") {
    if (error instanceof ApiError && error.status === 404) {
      return <p className="py-16 text-center text-muted">Feed not found.</p>;
    }
    return <Alert title="Error Loading Feed">{error.message}</Alert>;
  }
  // The editor keeps its working copy across saves and refetches; only another feed starts a new one.
  return <FeedEditor key={feed.id} feed={feed} />;
}
