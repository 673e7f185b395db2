import type { FeedSummary } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "#web/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Skeleton } from "#web/components/ui/skeleton";
import { FeedLink } from "#web/features/feeds/components/FeedLink";
import { ProfileTrust } from "#web/features/governance/components/ProfileTrust";
import { approverForQueryOptions, curatorForQueryOptions } from "#web/features/profile/api";

/** The feeds the signed-in user moderates and the feeds they have submitted to. */
export function ProfileOverview({ accountId }: { accountId: string }) {
  const approverFor = useQuery(approverForQueryOptions(accountId));
  const curatorFor = useQuery(curatorForQueryOptions(accountId));
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <FeedRoleList
        title="Approver For"
        testId="approver-for"
        empty="You don't moderate any feeds yet."
        feeds={approverFor.data}
        status={approverFor.status}
      />
      <FeedRoleList
        title="Curator For"
        testId="curator-for"
        empty="You haven't submitted to any feeds yet."
        feeds={curatorFor.data}
        status={curatorFor.status}
      />
      <div className="md:col-span-2">
        <ProfileTrust accountId={accountId} />
      </div>
    </div>
  );
}

interface FeedRoleListProps {
  title: string;
  testId: string;
  empty: string;
  feeds: FeedSummary[] | undefined;
  status: "pending" | "error" | "success";
}

function FeedRoleList({ title, testId, empty, feeds, status }: FeedRoleListProps) {
  const headingId = `${testId}-heading`;
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle id={headingId}>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {status === "pending" ? (
          <ul aria-busy="true" aria-label={`Loading ${title}`} className="flex flex-col gap-2">
            {[0, 1, 2].map((row) => (
              <li key={row} className="flex items-center gap-3 py-1">
                <Skeleton className="size-8" />
                <Skeleton className="h-4 w-40" />
              </li>
            ))}
          </ul>
        ) : status === "error" ? (
          <Alert>Failed to load feeds. Please try again.</Alert>
        ) : !feeds?.length ? (
          <p className="py-2 text-sm text-muted">{empty}</p>
        ) : (
          <ul aria-labelledby={headingId} className="-mx-2 flex flex-col gap-0.5">
            {feeds.map((feed) => (
              <li key={feed.id}>
                <FeedLink feed={feed} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
