import { API_SCOPE_LABELS, type ApiToken, type ApiTokenCreated } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge, type BadgeTone } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { CopyButton } from "#web/components/ui/copy-button";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { Pager } from "#web/components/ui/pager";
import { RelativeTime } from "#web/components/ui/relative-time";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { serverMessage } from "#web/lib/api";
import { formatDatePattern } from "#web/lib/format";
import { apiTokensQueryOptions } from "../api";
import { useRevokeApiToken } from "../mutations";
import { CreateTokenForm } from "./CreateTokenForm";
import { TokenActivity } from "./TokenActivity";

const STATUS_TONES: Record<ApiToken["status"], BadgeTone> = {
  active: "green",
  expired: "amber",
  revoked: "red",
};

const day = (iso: string) => formatDatePattern(iso, "MMM d, yyyy");

/**
 * Settings → API tokens: personal tokens for scripts and bots. A new token's secret is shown once, here, and never
 * again (the server keeps only its hash); tokens are revoked here too, never by a token.
 */
export function ApiTokensPage({ accountId }: { accountId: string }) {
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>API Tokens</CardTitle>
          <p className="text-sm text-muted">
            Scripts and bots use a token to act as you through the{" "}
            <a className="text-accent underline-offset-4 hover:underline" href="/api/docs">
              Curate API
            </a>
            , sent as{" "}
            <code className="rounded bg-canvas px-1 font-mono text-xs">Authorization: Bearer …</code>. A token
            can do only what its scopes allow and what your account may do; it cannot make other tokens.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {created ? <NewTokenNotice created={created} onDone={() => setCreated(null)} /> : null}
          <CreateTokenForm accountId={accountId} onCreated={setCreated} />
        </CardContent>
      </Card>
      <TokenList accountId={accountId} />
      <TokenActivity accountId={accountId} />
    </div>
  );
}

/** The one time a token's secret is on screen. */
function NewTokenNotice({ created, onDone }: { created: ApiTokenCreated; onDone: () => void }) {
  return (
    <Alert
      variant="info"
      title={`“${created.token.name}” is ready. Copy the token now: it will not be shown again.`}
    >
      <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center">
        <code
          className="min-w-0 flex-1 rounded-md border border-line bg-surface px-3 py-2 font-mono text-xs break-all text-ink"
          data-testid="new-api-token"
        >
          {created.secret}
        </code>
        <div className="flex gap-2">
          <CopyButton text={created.secret} what="token" />
          <Button variant="secondary" size="sm" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </Alert>
  );
}

function TokenList({ accountId }: { accountId: string }) {
  const [page, setPage] = useState(0);
  const tokens = useQuery(apiTokensQueryOptions(accountId, page));
  const [revoking, setRevoking] = useState<ApiToken | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your Tokens</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {tokens.isPending ? (
          <div className="flex flex-col gap-2" role="status" aria-label="Loading tokens">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : tokens.isError ? (
          <Alert>Could not load your tokens: {serverMessage(tokens.error) ?? "Unknown error"}</Alert>
        ) : tokens.data.items.length === 0 ? (
          <p className="text-sm text-muted">No tokens yet.</p>
        ) : (
          <>
            <ul
              className="flex flex-col divide-y divide-line rounded-md border border-line"
              aria-label="API tokens"
            >
              {tokens.data.items.map((token) => (
                <TokenRow key={token.id} token={token} onRevoke={() => setRevoking(token)} />
              ))}
            </ul>
            <Pager page={page} hasNextPage={tokens.data.pagination.hasNextPage} onPage={setPage} />
          </>
        )}
      </CardContent>
      <RevokeDialog accountId={accountId} token={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  return (
    <li className="flex flex-col gap-2 px-4 py-3" aria-label={token.name}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <KeyRoundIcon aria-hidden="true" className="size-4 shrink-0 text-muted" />
        <span className="min-w-0 font-medium break-words text-ink">{token.name}</span>
        <Badge tone={STATUS_TONES[token.status]}>{token.status}</Badge>
        {token.status === "active" ? (
          <Button
            variant="secondary"
            size="sm"
            className="ml-auto text-red-700 hover:bg-red-50"
            aria-label={`Revoke ${token.name}`}
            onClick={onRevoke}
          >
            Revoke
          </Button>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <code className="font-mono text-xs text-muted">{token.hint}</code>
        {token.scopes.map((scope) => (
          <Badge key={scope} tone="accent">
            {API_SCOPE_LABELS[scope].label}
          </Badge>
        ))}
      </div>
      <p className="text-xs text-muted">
        Created {day(token.createdAt)} ·{" "}
        {token.revokedAt
          ? `revoked ${day(token.revokedAt)}`
          : token.expiresAt
            ? `${token.status === "expired" ? "expired" : "expires"} ${day(token.expiresAt)}`
            : "never expires"}{" "}
        ·{" "}
        {token.lastUsedAt ? (
          <>
            last used <RelativeTime date={token.lastUsedAt} />
          </>
        ) : (
          "never used"
        )}
      </p>
    </li>
  );
}

function RevokeDialog({
  accountId,
  token,
  onClose,
}: {
  accountId: string;
  token: ApiToken | null;
  onClose: () => void;
}) {
  const revoke = useRevokeApiToken(accountId);
  return (
    <Dialog open={token !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Revoke Token"
        description={`Revoke “${token?.name ?? ""}”? Scripts using it are refused from their next request on. This cannot be undone.`}
      >
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button
            className="bg-red-700 hover:bg-red-800"
            loading={revoke.isPending}
            onClick={() =>
              token &&
              revoke.mutate(token.id, {
                onSuccess: () => {
                  toast.success("Token revoked", { description: `“${token.name}” no longer works.` });
                  onClose();
                },
                onError: (error) =>
                  toast.error("Could not revoke the token", {
                    description: serverMessage(error) ?? "Unknown error",
                  }),
              })
            }
          >
            Revoke
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
