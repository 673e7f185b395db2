import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "../../../components/ui/skeleton";
import { feedQueryOptions } from "../api";
import { FeedImage } from "./FeedImage";

export function FeedHeader({ feedId }: { feedId: string }) {
  const { data: feed, status } = useQuery(feedQueryOptions(feedId));

  if (status === "pending") {
    return (
      <div className="flex items-center gap-5" aria-busy="true">
        <Skeleton className="size-16 sm:size-20" />
        <div className="flex flex-col gap-2">
          <p className="text-sm text-muted">Loading feed data...</p>
          <Skeleton className="h-7 w-56" />
        </div>
      </div>
    );
  }
  if (status === "error") {
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        Error loading feed information.
      </p>
    );
  }

  return (
    <div className="flex items-start gap-5">
      <title>{`${feed.name} · Curate`}</title>
      <FeedImage name={feed.name || feed.id} src={feed.image} className="size-16 sm:size-20" />
      <div className="min-w-0">
        <h1 className="text-2xl font-bold sm:text-3xl">{feed.name}</h1>
        <p className="mt-0.5 text-sm font-medium text-accent">#{feed.id}</p>
        {feed.description ? <p className="mt-2 max-w-2xl text-muted">{feed.description}</p> : null}
      </div>
    </div>
  );
}
