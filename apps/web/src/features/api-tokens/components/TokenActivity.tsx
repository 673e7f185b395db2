import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Pager } from "#web/components/ui/pager";
import { Skeleton } from "#web/components/ui/skeleton";
import { serverMessage } from "#web/lib/api";
import { formatDateTime } from "#web/lib/format";
import { apiTokenActivityQueryOptions } from "../api";

/** What the tokens changed, and with which token: only their owner sees this (the public log says "via API token"). */
export function TokenActivity({ accountId }: { accountId: string }) {
  const [page, setPage] = useState(0);
  const activity = useQuery(apiTokenActivityQueryOptions(accountId, page));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Token Activity</CardTitle>
        <p className="text-sm text-muted">
          Changes your tokens made in the last 90 days. Only you see this list.
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {activity.isPending ? (
          <div role="status" aria-label="Loading token activity">
            <Skeleton className="h-24 w-full" />
          </div>
        ) : activity.isError ? (
          <Alert>Could not load the activity: {serverMessage(activity.error) ?? "Unknown error"}</Alert>
        ) : activity.data.items.length === 0 ? (
          <p className="text-sm text-muted">Your tokens have not changed anything yet.</p>
        ) : (
          <>
            <div className="overflow-x-auto rounded-md border border-line">
              <table className="w-full min-w-[32rem] text-sm" aria-label="Token activity">
                <thead className="bg-canvas text-left text-xs text-muted">
                  <tr>
                    <th className="px-3 py-2 font-medium">When</th>
                    <th className="px-3 py-2 font-medium">Token</th>
                    <th className="px-3 py-2 font-medium">Request</th>
                    <th className="px-3 py-2 font-medium">Answer</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line">
                  {activity.data.items.map((use) => (
                    <tr key={use.id}>
                      <td className="px-3 py-2 whitespace-nowrap text-muted">{formatDateTime(use.at)}</td>
                      <td className="px-3 py-2">
                        <span className="text-ink">{use.tokenName}</span>{" "}
                        <code className="font-mono text-xs text-muted">{use.tokenId}</code>
                      </td>
                      <td className="px-3 py-2 font-mono text-xs">
                        {use.method} {use.route}
                      </td>
                      <td
                        className={use.status < 400 ? "px-3 py-2 text-emerald-800" : "px-3 py-2 text-red-700"}
                      >
                        {use.status}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} hasNextPage={activity.data.pagination.hasNextPage} onPage={setPage} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
