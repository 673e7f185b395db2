import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Pager } from "#web/components/ui/pager";
import { Skeleton } from "#web/components/ui/skeleton";
import { curatorTrustQueryOptions } from "#web/features/governance/api";
import { TrustList } from "./TrustList";

/** The profile's "Trust": the curator's standing in each feed with earned trust on, and why. */
export function ProfileTrust({ accountId }: { accountId: string }) {
  const [page, setPage] = useState(0);
  const { data, status } = useQuery(curatorTrustQueryOptions(accountId, page));
  return (
    <Card data-testid="profile-trust">
      <CardHeader>
        <CardTitle>Trust</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {status === "pending" ? (
          <Skeleton className="h-10 w-full" />
        ) : status === "error" ? (
          <Alert>Failed to load trust. Please try again.</Alert>
        ) : data.items.length === 0 ? (
          <p className="py-2 text-sm text-muted">
            No feed you curate for has earned trust on yet. Feeds that do trust curators whose submissions are
            approved often enough.
          </p>
        ) : (
          <>
            <TrustList items={data.items} show="feed" />
            <Pager page={page} hasNextPage={data.pagination.hasNextPage} onPage={setPage} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
