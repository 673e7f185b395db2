import type { Feed } from "@curate/core";
import { Link } from "@tanstack/react-router";
import { Avatar } from "#web/components/ui/avatar";

/** A feed as a list row: its image, name and #id, linking to its page. */
export function FeedLink({ feed }: { feed: Pick<Feed, "id" | "name" | "image"> }) {
  return (
    <Link
      to="/feed/$feedId"
      params={{ feedId: feed.id }}
      className="flex items-center gap-3 rounded-md px-2 py-2 transition-colors hover:bg-zinc-100"
    >
      <Avatar name={feed.name || feed.id} src={feed.image} size={32} shape="square" />
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium text-ink">{feed.name}</span>
        <span className="block truncate text-xs text-muted">#{feed.id}</span>
      </span>
    </Link>
  );
}
