import type { FeedSummary } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { AlertTriangleIcon, CalendarIcon, FileTextIcon, UsersIcon } from "lucide-react";
import { Card } from "#web/components/ui/card";
import { EditFeedLink } from "#web/features/feeds/components/EditFeedLink";
import { FeedImage } from "#web/features/feeds/components/FeedImage";
import { contentCountQueryOptions } from "#web/features/profile/api";
import { formatCount } from "#web/lib/format";

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

function plural(count: number, one: string, many: string) {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

export function MyFeedCard({ feed }: { feed: FeedSummary }) {
  const complete = feed.complete;
  const contentCount = useQuery(contentCountQueryOptions(feed.id));
  const curators = feed.approverCount;
  const name = feed.name || feed.id;

  return (
    <Card
      data-testid="my-feed-card"
      data-feed-id={feed.id}
      className="group relative flex w-full flex-col overflow-hidden transition-shadow focus-within:shadow-md hover:shadow-md"
    >
      {complete ? null : (
        <p className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs font-medium text-amber-800">
          <AlertTriangleIcon className="size-3.5" aria-hidden="true" />
          Setup incomplete
        </p>
      )}
      <div className="flex items-start gap-4 p-4">
        <FeedImage name={name} src={feed.image} className="size-16 text-xl" />
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-base font-semibold">
            {/* The whole card is the link's hit area; the name stays the link's text. */}
            <Link
              to={complete ? "/feed/$feedId" : "/edit/feed/$feedId"}
              params={{ feedId: feed.id }}
              className="after:absolute after:inset-0 hover:text-accent"
            >
              {name}
            </Link>
          </h3>
          <p className="text-xs break-all text-muted">#{feed.id}</p>
        </div>
        {/* Above the card-wide link, so it gets its own clicks. */}
        <EditFeedLink feedId={feed.id} label="Edit" className="relative z-10 shrink-0" />
      </div>
      {/* The padding sits outside the clamped box: inside it, a third line showed through. */}
      <div className="px-4 pb-4">
        <p
          className="line-clamp-2 min-h-10 text-sm text-muted [overflow-wrap:anywhere]"
          data-testid="my-feed-description"
        >
          {feed.description || "No description yet."}
        </p>
      </div>
      <dl className="mt-auto grid grid-cols-3 gap-2 border-t border-line px-4 py-3 text-xs text-muted">
        <div className="flex items-center gap-1.5" title="Created">
          <CalendarIcon className="size-3.5 shrink-0" aria-hidden="true" />
          <dt className="sr-only">Created</dt>
          <dd>
            <time dateTime={feed.createdAt}>{dateFormat.format(new Date(feed.createdAt))}</time>
          </dd>
        </div>
        <div className="flex items-center gap-1.5" title="Approvers named in the feed's moderation settings">
          <UsersIcon className="size-3.5 shrink-0" aria-hidden="true" />
          <dt className="sr-only">Curators (approvers named in the feed's moderation settings)</dt>
          <dd data-testid="curator-count">{plural(curators, "curator", "curators")}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <FileTextIcon className="size-3.5 shrink-0" aria-hidden="true" />
          <dt className="sr-only">Content</dt>
          <dd data-testid="content-count">
            {contentCount.status === "success"
              ? plural(contentCount.data, "item", "items")
              : contentCount.status === "error"
                ? "—"
                : "…"}
          </dd>
        </div>
      </dl>
    </Card>
  );
}
