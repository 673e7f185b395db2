import { builtinPluginName, FEDIVERSE_TEXTS, type FediverseStatus } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { CopyButton } from "#web/components/ui/copy-button";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { feedQueryOptions } from "#web/features/feeds/api";
import { serverMessage } from "#web/lib/api";
import { fediverseStatusQueryOptions } from "../api";
import { useSetFediverse } from "../mutations";

const number = new Intl.NumberFormat("en");

/**
 * Settings → Fediverse, for the feed's owner and admins: the feed as an ActivityPub actor that Mastodon (and any
 * fediverse) users follow, its handle, followers and deliveries.
 */
export function FediversePanel({ feedId }: { feedId: string }) {
  const status = useQuery({ ...fediverseStatusQueryOptions(feedId), refetchInterval: 5000 });
  const { data: feed } = useQuery(feedQueryOptions(feedId));
  // The hint to add the distributor is for a stream that does not publish to the fediverse yet.
  const streamPublishes = feed?.config.outputs?.stream?.distribute?.some(
    (distributor) => builtinPluginName(distributor.plugin) === "activitypub",
  );
  if (status.isPending)
    return <Skeleton className="h-48 w-full" aria-label="Loading the fediverse settings" />;
  if (status.isError) {
    return (
      <Alert>Could not load the fediverse settings: {serverMessage(status.error) ?? "Unknown error"}</Alert>
    );
  }
  const data = status.data;
  return (
    <div className="flex flex-col gap-5">
      {data.available ? null : <Alert variant="warning">{FEDIVERSE_TEXTS.unavailable}</Alert>}
      <Card>
        <CardHeader>
          <CardTitle>{data.enabled ? "Followable from the fediverse" : "Off"}</CardTitle>
          <p className="text-sm text-muted">
            {data.enabled
              ? "Fediverse users follow this handle; each approved item reaches them as a post once the feed's stream has the Fediverse distributor."
              : "Turn it on to give the feed a fediverse handle that Mastodon and other fediverse users can follow."}
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {data.handle ? <Handle handle={data.handle} /> : null}
          <Toggle feedId={feedId} data={data} />
        </CardContent>
      </Card>
      {data.enabled ? <Counts data={data} /> : null}
      {data.enabled && feed && !streamPublishes ? (
        <Alert variant="info" title="Publishing">
          Add the <code className="font-mono text-xs">@curate/activitypub</code> distributor to the feed's
          stream in the feed editor: each approved item becomes a post with its link, crediting its curator. A
          re-run that edits it updates the post; a retraction deletes it.
        </Alert>
      ) : null}
    </div>
  );
}

function Handle({ handle }: { handle: string }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <span className="text-sm text-muted">Handle</span>
      <code
        className="min-w-0 break-all rounded-md border border-line bg-surface px-3 py-1.5 font-mono text-sm text-ink"
        data-testid="fediverse-handle"
      >
        {handle}
      </code>
      <CopyButton text={handle} what="handle" />
    </div>
  );
}

function Toggle({ feedId, data }: { feedId: string; data: FediverseStatus }) {
  const set = useSetFediverse(feedId);
  const next = !data.enabled;
  return (
    <Button
      type="button"
      variant={data.enabled ? "secondary" : "primary"}
      className="self-start"
      disabled={next && !data.available}
      loading={set.isPending}
      onClick={() =>
        set.mutate(next, {
          onSuccess: () => toast.success(next ? "The feed is on the fediverse" : "The fediverse is off"),
          onError: (failure) =>
            toast.error("Could not change the fediverse setting", {
              description: serverMessage(failure) ?? undefined,
            }),
        })
      }
    >
      {data.enabled ? "Turn off" : "Turn on the fediverse"}
    </Button>
  );
}

function Counts({ data }: { data: FediverseStatus }) {
  const items: Array<[string, number]> = [
    ["Followers", data.followers],
    ["Posts", data.published],
    ["Deliveries waiting", data.deliveriesPending],
    ["Deliveries given up", data.deliveriesFailed],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Fediverse numbers">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-md border border-line bg-surface px-4 py-3 shadow-xs">
          <dt className="text-xs text-muted">{label}</dt>
          <dd className="mt-1 text-2xl font-bold text-ink tabular-nums">{number.format(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
