import type { ScheduledChannel, ScheduledSend } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { ArrowDownIcon, ArrowUpIcon, CalendarClockIcon, SendIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { AccessRestricted } from "#web/components/ui/access-restricted";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { Pager } from "#web/components/ui/pager";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { useModeratorAccess } from "#web/features/moderation/api";
import { serverMessage } from "#web/lib/api";
import { formatCount, formatJobDate } from "#web/lib/format";
import { SCHEDULED_PAGE_SIZE, scheduledChannelsQueryOptions, scheduledSendsQueryOptions } from "../api";
import { useChangeScheduledSend } from "../mutations";

/** The Scheduled tab (decision 0036): per scheduled channel, what goes out when, with its moderators' actions. */
export function ScheduledView({ feedId }: { feedId: string }) {
  const access = useModeratorAccess(feedId);
  return (
    <section aria-labelledby="scheduled-title" className="flex flex-col gap-5">
      <SectionHeader
        id="scheduled-title"
        title="Scheduled"
        description="What each scheduled channel publishes when. Move items, publish one now, or take it off."
      />
      {access === "checking" ? (
        <ListSkeleton />
      ) : access === "denied" ? (
        <AccessRestricted>You need to be a moderator of this feed to view its schedule.</AccessRestricted>
      ) : (
        <Channels feedId={feedId} />
      )}
    </section>
  );
}

function Channels({ feedId }: { feedId: string }) {
  const channels = useQuery(scheduledChannelsQueryOptions(feedId));
  const [chosen, setChosen] = useState<string | null>(null);
  if (channels.isPending) return <ListSkeleton />;
  if (channels.isError) {
    return (
      <Alert variant="error" role="alert">
        Could not load the schedule: {serverMessage(channels.error) ?? "Unknown error"}
      </Alert>
    );
  }
  if (channels.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-md border border-dashed border-line p-10 text-center">
        <CalendarClockIcon aria-hidden="true" className="size-6 text-muted" />
        <p className="font-medium">No channel of this feed is scheduled</p>
        <p className="max-w-md text-sm text-muted">
          Every distributor publishes as soon as a post is approved. Give one a schedule (slots or a rate) in
          the feed's settings to pace it.
        </p>
      </div>
    );
  }
  const current = channels.data.find((channel) => channel.channelKey === chosen) ?? channels.data[0];
  return (
    <div className="flex flex-col gap-4">
      {channels.data.length > 1 ? (
        <div role="group" aria-label="Channels" className="flex flex-wrap gap-2">
          {channels.data.map((channel) => (
            <Button
              key={channel.channelKey}
              size="sm"
              variant={channel.channelKey === current.channelKey ? "primary" : "secondary"}
              aria-pressed={channel.channelKey === current.channelKey}
              onClick={() => setChosen(channel.channelKey)}
            >
              {channel.label} ({formatCount(channel.waiting)})
            </Button>
          ))}
        </div>
      ) : null}
      <ChannelLine key={current.channelKey} feedId={feedId} channel={current} />
    </div>
  );
}

function ChannelLine({ feedId, channel }: { feedId: string; channel: ScheduledChannel }) {
  const [page, setPage] = useState(0);
  const sends = useQuery(scheduledSendsQueryOptions(feedId, channel.channelKey, page));
  const change = useChangeScheduledSend(feedId);
  const [removing, setRemoving] = useState<ScheduledSend | null>(null);
  const total = sends.data?.pagination.totalCount ?? channel.waiting;
  const busy = (sendId: string) => change.isPending && change.variables?.sendId === sendId;

  return (
    <div className="flex flex-col gap-3" data-testid="scheduled-channel">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-base font-semibold">{channel.label}</h3>
        <p className="text-sm text-muted">
          {channel.schedule} · {total === 1 ? "1 item waiting" : `${formatCount(total)} items waiting`}
        </p>
      </div>
      {sends.isPending ? (
        <ListSkeleton />
      ) : sends.isError ? (
        <Alert variant="error" role="alert">
          Could not load this channel's items: {serverMessage(sends.error) ?? "Unknown error"}
        </Alert>
      ) : sends.data.items.length === 0 ? (
        <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-muted">
          Nothing is waiting for this channel.
        </p>
      ) : (
        <Table stacked aria-label={`Scheduled for ${channel.label}`}>
          <TableHeader>
            <TableRow>
              <TableHead className="w-12">#</TableHead>
              <TableHead>Goes out</TableHead>
              <TableHead>Post</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sends.data.items.map((item) => (
              <TableRow key={item.id} data-testid="scheduled-item">
                <TableCell label="Place" className="tabular-nums text-muted">
                  {item.position}
                </TableCell>
                <TableCell label="Goes out" className="whitespace-nowrap">
                  {item.publishNow ? (
                    <span className="font-medium text-accent">Publishing now…</span>
                  ) : (
                    <time dateTime={item.plannedAt}>{formatJobDate(item.plannedAt)}</time>
                  )}
                </TableCell>
                <TableCell label="Post" className="max-w-md @max-2xl:w-full">
                  <p className="line-clamp-2 break-words">{item.content}</p>
                  {item.username ? <p className="text-xs text-muted">@{item.username}</p> : null}
                </TableCell>
                <TableCell className="@max-2xl:w-full">
                  <div className="flex flex-wrap justify-end gap-1 @max-2xl:justify-start">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move item ${item.position} up`}
                      disabled={item.position === 1 || item.publishNow || change.isPending}
                      onClick={() =>
                        change.mutate({ action: "move", sendId: item.id, position: item.position - 1 })
                      }
                    >
                      <ArrowUpIcon aria-hidden="true" />
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move item ${item.position} down`}
                      disabled={item.position >= total || item.publishNow || change.isPending}
                      onClick={() =>
                        change.mutate({ action: "move", sendId: item.id, position: item.position + 1 })
                      }
                    >
                      <ArrowDownIcon aria-hidden="true" />
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={item.publishNow || (change.isPending && !busy(item.id))}
                      loading={busy(item.id) && change.variables?.action === "publishNow"}
                      onClick={() => change.mutate({ action: "publishNow", sendId: item.id })}
                    >
                      <SendIcon aria-hidden="true" />
                      Publish now
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-muted hover:text-red-700"
                      aria-label={`Remove item ${item.position} from the schedule`}
                      disabled={item.publishNow || change.isPending}
                      onClick={() => setRemoving(item)}
                    >
                      <Trash2Icon aria-hidden="true" />
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {sends.data ? (
        <Pager
          page={page}
          hasNextPage={sends.data.pagination.hasNextPage}
          onPage={(next) => setPage(Math.max(0, next))}
        />
      ) : null}
      <Dialog open={removing !== null} onOpenChange={(open) => (open ? null : setRemoving(null))}>
        <DialogContent
          title="Remove from the schedule?"
          description={`It will not be published on ${channel.label}. The post stays approved, and the items behind it move up.`}
        >
          <p className="line-clamp-3 rounded-md bg-zinc-50 p-3 text-sm break-words">{removing?.content}</p>
          <div className="mt-5 flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="secondary">Keep it</Button>
            </DialogClose>
            <Button
              className="bg-red-700 text-white hover:bg-red-800"
              loading={change.isPending && change.variables?.action === "remove"}
              onClick={() => {
                if (!removing) return;
                change.mutate(
                  { action: "remove", sendId: removing.id },
                  { onSettled: () => setRemoving(null) },
                );
              }}
            >
              Remove
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}

const ListSkeleton = () => (
  <div className="flex flex-col gap-2" aria-hidden="true">
    {Array.from({ length: Math.min(4, SCHEDULED_PAGE_SIZE) }, (_, index) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
      <Skeleton key={index} className="h-12 w-full" />
    ))}
  </div>
);
