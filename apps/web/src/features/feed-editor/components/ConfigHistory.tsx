import type { Feed, FeedVersion } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { ChevronDownIcon, HistoryIcon, RotateCcwIcon } from "lucide-react";
import { useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { Dialog, DialogClose, DialogContent } from "#web/components/ui/dialog";
import { RelativeTime } from "#web/components/ui/relative-time";
import { Skeleton } from "#web/components/ui/skeleton";
import { toast } from "#web/components/ui/toast";
import { FEED_VERSIONS_PAGE_SIZE, feedVersionsQueryOptions } from "#web/features/feeds/api";
import { useRestoreFeedVersion } from "#web/features/feeds/mutations";
import { shortAccountId } from "#web/lib/account";

interface ConfigHistoryProps {
  feedId: string;
  /** Unsaved edits on the page, which a restore replaces. */
  dirty: boolean;
  /** The restore was saved: the editor starts again from the restored config. */
  onRestored: (feed: Feed) => void;
}

/** The edit page's history: every saved version (paged, newest first) with what changed, and Restore. */
export function ConfigHistory({ feedId, dirty, onRestored }: ConfigHistoryProps) {
  const [page, setPage] = useState(0);
  const { data, status, error } = useQuery(feedVersionsQueryOptions(feedId, page));
  const [restoring, setRestoring] = useState<number | null>(null);
  const restore = useRestoreFeedVersion(feedId);
  const latest = page === 0 ? data?.items[0]?.version : undefined;

  function confirmRestore() {
    if (restoring === null) return;
    const version = restoring;
    restore.mutate(version, {
      onSuccess: (feed) => {
        setRestoring(null);
        setPage(0);
        toast.success("Success", { description: `Version ${version} restored as a new version.` });
        onRestored(feed);
      },
      onError: (failure) => {
        setRestoring(null);
        toast.error("Restore Failed", { description: failure.message });
      },
    });
  }

  return (
    <Card data-testid="config-history">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HistoryIcon className="size-5 text-muted" aria-hidden="true" />
          Config History
        </CardTitle>
        <p className="text-sm text-muted">
          Every save is kept. Restoring a version saves it again as a new version.
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {status === "pending" ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : status === "error" ? (
          <Alert title="Could not load the history">{error.message}</Alert>
        ) : data.items.length === 0 ? (
          <p className="text-sm text-muted">No saved versions yet.</p>
        ) : (
          <ol
            className="flex flex-col divide-y divide-line rounded-md border border-line"
            aria-label="Versions"
          >
            {data.items.map((version) => (
              <VersionRow
                key={version.version}
                version={version}
                current={version.version === latest}
                onRestore={() => setRestoring(version.version)}
              />
            ))}
          </ol>
        )}
        {data && (data.pagination.hasNextPage || page > 0) ? (
          <div className="flex items-center justify-between gap-3 text-sm text-muted">
            <span>
              Page {page + 1} of{" "}
              {Math.max(1, Math.ceil(data.pagination.totalCount / FEED_VERSIONS_PAGE_SIZE))}
            </span>
            <div className="flex gap-2">
              <Button variant="secondary" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Newer
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={!data.pagination.hasNextPage}
                onClick={() => setPage(page + 1)}
              >
                Older
              </Button>
            </div>
          </div>
        ) : null}
      </CardContent>

      <Dialog open={restoring !== null} onOpenChange={(open) => (open ? null : setRestoring(null))}>
        <DialogContent
          title={`Restore version ${restoring ?? ""}?`}
          description={`Its configuration is saved again as a new version, with the same checks as any save.${
            dirty ? " Your unsaved changes on this page are discarded." : ""
          }`}
        >
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button onClick={confirmRestore} loading={restore.isPending}>
              Restore
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

const KIND_LABEL = { created: "Created", saved: "Saved", restored: "Restored" } as const;

function VersionRow({
  version,
  current,
  onRestore,
}: {
  version: FeedVersion;
  current: boolean;
  onRestore: () => void;
}) {
  const [open, setOpen] = useState(false);
  const changesId = `version-${version.version}-changes`;
  return (
    <li className="flex flex-col gap-2 p-3" data-testid="config-version">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="font-semibold text-ink">Version {version.version}</span>
          {version.kind === "restored" ? (
            <Badge tone="accent">Restored from version {version.restoredFrom}</Badge>
          ) : (
            <Badge>{KIND_LABEL[version.kind]}</Badge>
          )}
          {version.channelsChanged ? <Badge tone="amber">Channels changed</Badge> : null}
          {current ? <Badge tone="green">Current</Badge> : null}
        </div>
        <div className="flex items-center gap-2">
          {version.changeCount > 0 ? (
            <Button
              variant="ghost"
              size="sm"
              aria-expanded={open}
              aria-controls={changesId}
              onClick={() => setOpen(!open)}
            >
              {version.changeCount} {version.changeCount === 1 ? "change" : "changes"}
              <ChevronDownIcon
                className={open ? "rotate-180 transition-transform" : "transition-transform"}
                aria-hidden="true"
              />
            </Button>
          ) : null}
          {current ? null : (
            <Button variant="secondary" size="sm" onClick={onRestore}>
              <RotateCcwIcon aria-hidden="true" />
              Restore
            </Button>
          )}
        </div>
      </div>
      <p className="text-xs text-muted">
        {version.savedBy ? (
          <>
            by{" "}
            <span className="font-medium text-ink" title={version.savedBy}>
              {shortAccountId(version.savedBy)}
            </span>{" "}
          </>
        ) : null}
        <RelativeTime date={version.savedAt} title={new Date(version.savedAt).toLocaleString()} />
      </p>
      {open ? (
        <ul id={changesId} className="flex flex-col gap-1 rounded-md bg-canvas p-2 font-mono text-xs">
          {version.changes.map((change) => (
            <li key={`${change.kind}:${change.path}`} className="flex flex-wrap gap-x-2 break-all">
              <span
                className={
                  change.kind === "added"
                    ? "text-emerald-800"
                    : change.kind === "removed"
                      ? "text-red-800"
                      : "text-amber-800"
                }
              >
                {change.kind === "added" ? "+" : change.kind === "removed" ? "−" : "~"} {change.path}
              </span>
              <span className="text-muted">
                {change.kind === "added"
                  ? brief(change.after)
                  : change.kind === "removed"
                    ? brief(change.before)
                    : `${brief(change.before)} → ${brief(change.after)}`}
              </span>
            </li>
          ))}
          {version.changeCount > version.changes.length ? (
            <li className="text-muted">…and {version.changeCount - version.changes.length} more</li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

/** A value as one short line. */
function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
