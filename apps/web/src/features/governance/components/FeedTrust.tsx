import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pager } from "#web/components/ui/pager";
import { feedTrustQueryOptions } from "#web/features/governance/api";
import { TrustList } from "./TrustList";

/**
 * The feed page's "Trusted curators": who earned trust in this feed (or was pinned), and who lost it, each with why.
 * Nothing at all in a feed with trust off, or before anyone was evaluated.
 */
export function FeedTrust({ feedId }: { feedId: string }) {
  const [page, setPage] = useState(0);
  const { data } = useQuery(feedTrustQueryOptions(feedId, page));
  if (!data || (data.items.length === 0 && page === 0)) return null;
  return (
    <section aria-labelledby="feed-trust-heading" className="flex flex-col gap-3" data-testid="feed-trust">
      <h2 id="feed-trust-heading" className="text-sm font-semibold text-ink">
        Trusted curators
      </h2>
      <TrustList items={data.items} show="curator" />
      <Pager page={page} hasNextPage={data.pagination.hasNextPage} onPage={setPage} />
    </section>
  );
}
