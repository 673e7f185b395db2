import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LinkIcon, RotateCwIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { SectionHeader } from "#web/components/ui/section-header";
import { appConfigQueryOptions } from "#web/features/config/api";
import { CrosspostAuthError, CrosspostUnavailableError, connectedAccountsQueryOptions } from "../api";
import { connectAccount } from "../connect";
import { LinkedHandles } from "./LinkedHandles";
import { ListNote } from "./ListNote";

/** /profile/settings/connections: the social accounts the user connected through Crosspost. */
export function ConnectionsPage({ accountId }: { accountId: string }) {
  const queryClient = useQueryClient();
  const config = useQuery(appConfigQueryOptions());
  const crosspostUrl = config.data?.crosspostUrl;
  const accounts = useQuery({
    ...connectedAccountsQueryOptions(crosspostUrl ?? "", accountId),
    enabled: Boolean(crosspostUrl),
  });
  const [connecting, setConnecting] = useState(false);

  async function connect() {
    if (!crosspostUrl) return;
    setConnecting(true);
    await connectAccount("X", crosspostUrl, queryClient);
    setConnecting(false);
  }

  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="connections-title" className="flex flex-col gap-5">
        <SectionHeader
          id="connections-title"
          title="Connected Accounts"
          description="Connect your X account to post through Crosspost and moderate feeds that list your handle."
          actions={
            <Button onClick={connect} loading={connecting} disabled={!crosspostUrl}>
              <LinkIcon aria-hidden="true" />
              Connect X Account
            </Button>
          }
        />
        {accounts.isError ? (
          accounts.error instanceof CrosspostAuthError ? (
            <Alert>{accounts.error.message}</Alert>
          ) : (
            <Alert layout="block" title="Crosspost cannot be reached" data-testid="crosspost-unavailable">
              <p className="max-w-md">
                {accounts.error instanceof CrosspostUnavailableError
                  ? `Your connected accounts are kept by Crosspost (${accounts.error.host}), which is not answering right now. Nothing is lost: try again in a moment.`
                  : accounts.error.message}
              </p>
              <Button
                variant="secondary"
                size="sm"
                loading={accounts.isFetching}
                onClick={() => void accounts.refetch()}
              >
                <RotateCwIcon aria-hidden="true" />
                Retry
              </Button>
            </Alert>
          )
        ) : accounts.isPending ? (
          <ListNote loading>Loading connected accounts...</ListNote>
        ) : accounts.data.length === 0 ? (
          <ListNote>No accounts connected yet.</ListNote>
        ) : (
          <ul
            aria-label="Connected accounts"
            className="divide-y divide-line rounded-md border border-line bg-surface"
          >
            {accounts.data.map((account) => (
              <li
                key={`${account.platform}:${account.userId}`}
                className="flex items-center gap-3 px-4 py-3 text-sm"
              >
                <span className="font-medium">@{account.profile?.username ?? account.userId}</span>
                <span className="text-muted capitalize">
                  {account.platform === "x" ? "X" : account.platform}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <LinkedHandles accountId={accountId} networks={config.data?.networks} />
    </div>
  );
}
