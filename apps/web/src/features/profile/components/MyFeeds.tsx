import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PlusIcon, RotateCwIcon, SearchIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { SectionHeader } from "#web/components/ui/section-header";
import { Select } from "#web/components/ui/select";
import { Skeleton } from "#web/components/ui/skeleton";
import { myFeedsQueryOptions } from "#web/features/profile/api";
import { filterMyFeeds, MY_FEEDS_FILTERS, type MyFeedsFilter } from "#web/features/profile/my-feeds";
import { MyFeedCard } from "./MyFeedCard";

/** The feeds the signed-in user created or administers, with a search and a setup-state filter. */
export function MyFeeds({ accountId }: { accountId: string }) {
  const feeds = useQuery(myFeedsQueryOptions(accountId));
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<MyFeedsFilter>("all");
  const shown = feeds.data ? filterMyFeeds(feeds.data, search, filter) : [];

  return (
    <section aria-labelledby="my-feeds-heading" className="flex flex-col gap-6">
      <SectionHeader
        id="my-feeds-heading"
        title="My Feeds"
        actions={
          <Button asChild>
            <Link to="/create/feed">
              <PlusIcon aria-hidden="true" />
              Create New Feed
            </Link>
          </Button>
        }
      />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor="my-feeds-search" className="text-xs font-medium text-muted">
            Search
          </label>
          <div className="relative">
            <SearchIcon
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
            />
            <Input
              id="my-feeds-search"
              type="search"
              placeholder="Search your feeds"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="pl-9"
            />
          </div>
        </div>
        <Select
          label="Filter"
          value={filter}
          options={MY_FEEDS_FILTERS}
          onValueChange={setFilter}
          className="sm:w-52"
        />
      </div>

      {feeds.status === "pending" ? (
        <ul
          aria-busy="true"
          aria-label="Loading feeds"
          className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3"
        >
          {[0, 1, 2].map((slot) => (
            <li key={slot}>
              <Card className="overflow-hidden">
                <Skeleton className="aspect-[2/1] rounded-none" />
                <div className="flex flex-col gap-2 p-4">
                  <Skeleton className="h-5 w-2/3" />
                  <Skeleton className="h-4 w-full" />
                  <Skeleton className="h-4 w-1/2" />
                </div>
              </Card>
            </li>
          ))}
        </ul>
      ) : feeds.status === "error" ? (
        <Alert layout="block">
          <p>Failed to load feeds. Please try again.</p>
          <Button variant="secondary" size="sm" onClick={() => void feeds.refetch()}>
            <RotateCwIcon aria-hidden="true" />
            Try again
          </Button>
        </Alert>
      ) : feeds.data.length === 0 ? (
        <Card className="flex flex-col items-center gap-4 border-dashed px-6 py-14 text-center">
          <p className="text-sm text-muted">You haven't created any feeds yet.</p>
          <Button asChild>
            <Link to="/create/feed">
              <PlusIcon aria-hidden="true" />
              Create Your First Feed
            </Link>
          </Button>
        </Card>
      ) : shown.length === 0 ? (
        <Card className="border-dashed px-6 py-14 text-center">
          <p className="text-sm text-muted">No feeds match your search criteria.</p>
        </Card>
      ) : (
        <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="my-feeds-grid">
          {shown.map((feed) => (
            <li key={feed.id} className="flex">
              <MyFeedCard feed={feed} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
