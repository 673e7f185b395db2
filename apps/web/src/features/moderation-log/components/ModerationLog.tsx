import type { LogIntegrity, LogPage } from "@curate/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { DownloadIcon } from "lucide-react";
import { Alert } from "#web/components/ui/alert";
import { Badge, type BadgeTone } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { RelativeTime } from "#web/components/ui/relative-time";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { cn } from "#web/lib/cn";
import { formatDateTime } from "#web/lib/format";
import { logDownloadUrl, moderationLogQueryOptions } from "../api";
import { describeEntry, type EntryLine, type Shown } from "../entry-view";
import { hasLogFilters, type LogFilters } from "../filters";
import { LogFilterForm } from "./LogFilterForm";

interface ModerationLogProps {
  feedId: string;
  filters: LogFilters;
  onFiltersChange: (filters: LogFilters) => void;
}

const TONES: Partial<Record<EntryLine["action"], BadgeTone>> = {
  approve: "green",
  reject: "red",
  retract: "red",
  undo: "amber",
  redact: "orange",
  approvers_changed: "accent",
  admins_changed: "accent",
  rules_changed: "accent",
  bulk_run: "accent",
};

// Columns of a row on wide screens; on phones each row is a card.
const ROW = "md:grid md:grid-cols-[5.5rem_9.5rem_minmax(0,11rem)_minmax(0,11.5rem)_minmax(0,1fr)] md:gap-4";

/**
 * The feed's public moderation log, newest first, readable like a forum's modlog: who did what to which post, from
 * where and why, with the proof that it was not edited since (each entry names the one before it; heads signed).
 */
export function ModerationLog({ feedId, filters, onFiltersChange }: ModerationLogProps) {
  const { data, status, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery(
    moderationLogQueryOptions(feedId, filters),
  );
  const first = data?.pages[0];
  const lines = data?.pages.flatMap((page) => page.items.map(describeEntry)) ?? [];
  return (
    <section aria-labelledby="moderation-log-heading" className="flex flex-col gap-5">
      <SectionHeader
        id="moderation-log-heading"
        title="Moderation log"
        description="Every submission, decision and change of who moderates this feed, in order, for anyone to read."
        actions={
          <Button asChild variant="secondary" size="sm">
            <a href={logDownloadUrl(feedId)} download>
              <DownloadIcon aria-hidden="true" />
              Download (JSON Lines)
            </a>
          </Button>
        }
      />
      <p className="max-w-3xl text-sm text-muted">
        Each entry carries the SHA-256 hash of the one before it, and the server signs the newest entry every
        few minutes with its published key, so no entry can be changed or removed without it showing. Check it
        yourself with{" "}
        <code className="rounded bg-zinc-100 px-1 py-0.5 text-xs text-ink">npm run verify-log</code> and this
        page's address.
      </p>
      {first ? <Integrity page={first} /> : null}
      <LogFilterForm filters={filters} onApply={onFiltersChange} />
      {status === "pending" ? (
        <div className="flex flex-col gap-2" aria-busy="true">
          <p className="text-sm text-muted">Loading the moderation log...</p>
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} className="h-16 w-full" />
          ))}
        </div>
      ) : status === "error" ? (
        <Alert>{`Error loading the moderation log: ${error.message}`}</Alert>
      ) : lines.length === 0 ? (
        <Card className="px-6 py-10 text-center text-sm text-muted">
          {hasLogFilters(filters)
            ? "No entries match these filters."
            : "Nothing has been logged in this feed yet."}
        </Card>
      ) : (
        <div className="flex flex-col gap-4">
          <div className="rounded-md border border-line bg-surface">
            <div
              aria-hidden="true"
              className={`${ROW} hidden border-b border-line bg-zinc-50 px-4 py-3 text-xs font-medium tracking-wide text-muted uppercase`}
            >
              <span>Entry</span>
              <span>Action</span>
              <span>By</span>
              <span>Post</span>
              <span>Reason and details</span>
            </div>
            <ol
              className="divide-y divide-line"
              aria-label="Log entries, newest first"
              data-testid="log-entries"
            >
              {lines.map((line) => (
                <LogRow key={line.seq} line={line} />
              ))}
            </ol>
          </div>
          {hasNextPage ? (
            <Button
              variant="secondary"
              className="self-center"
              onClick={() => void fetchNextPage()}
              loading={isFetchingNextPage}
            >
              Load more
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}

function Integrity({ page }: { page: LogPage }) {
  const { integrity, signature } = page;
  if (integrity.status === "broken") {
    return (
      <Alert title={`This log failed the server's integrity check at entry #${integrity.brokenAt}`}>
        {problemSentence(integrity)}
      </Alert>
    );
  }
  return (
    <p className="text-sm text-muted" data-testid="log-proof">
      {signature ? (
        <>
          Entry #{signature.seq} was signed{" "}
          <RelativeTime date={signature.signedAt} title={formatDateTime(signature.signedAt)} /> with key{" "}
          <code className="text-xs text-ink">{signature.key}</code>.
        </>
      ) : (
        "The newest entries are signed within minutes."
      )}{" "}
      {integrity.status === "ok" && integrity.checkedAt ? (
        <>
          The server last checked the whole log{" "}
          <RelativeTime date={integrity.checkedAt} title={formatDateTime(integrity.checkedAt)} />: it is
          intact.
        </>
      ) : null}
    </p>
  );
}

function problemSentence(integrity: LogIntegrity): string {
  const problem = integrity.problem ?? "";
  return problem ? `${problem.charAt(0).toUpperCase()}${problem.slice(1)}` : "An entry was changed.";
}

function LogRow({ line }: { line: EntryLine }) {
  return (
    <li
      className={`${ROW} flex flex-col gap-2 px-4 py-3 text-sm`}
      data-testid="log-entry"
      data-seq={line.seq}
    >
      <div className="flex items-baseline gap-2 md:flex-col md:gap-0.5">
        <span className="font-medium text-ink" title={`SHA-256 ${line.hash}`}>
          #{line.seq}
        </span>
        <RelativeTime date={line.at} title={formatDateTime(line.at)} className="text-xs text-muted" />
      </div>
      <div className="flex flex-wrap items-center gap-2 md:flex-col md:items-start md:gap-1">
        <Badge tone={TONES[line.action]}>{line.title}</Badge>
        <span className="text-xs text-muted">{line.where}</span>
      </div>
      <div
        className={cn("min-w-0 [overflow-wrap:anywhere]", !line.who && "hidden md:block")}
        title={line.whoInFull ?? undefined}
      >
        <span className="text-xs text-muted md:hidden">By </span>
        <Part part={line.who} empty="—" privateText="Not named (the feed keeps rejecters private)" />
      </div>
      <div className={cn("min-w-0 [overflow-wrap:anywhere]", !line.item && "hidden md:block")}>
        <span className="text-xs text-muted md:hidden">Post </span>
        {line.item && "value" in line.item ? (
          <Link
            to="/submission/$submissionId"
            params={{ submissionId: line.item.value }}
            className="text-accent underline-offset-2 hover:underline"
          >
            {shortId(line.item.value)}
          </Link>
        ) : (
          <Part part={line.item} empty="—" />
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-1 [overflow-wrap:anywhere]">
        {line.note ? (
          "value" in line.note ? (
            <q className="text-ink">{line.note.value}</q>
          ) : (
            <Part part={line.note} empty="" />
          )
        ) : null}
        {line.details ? <span className="text-muted">{line.details}</span> : null}
        {!line.note && !line.details ? <span className="hidden text-muted md:block">—</span> : null}
      </div>
    </li>
  );
}

function Part({
  part,
  empty,
  privateText = "Private",
}: {
  part: Shown<string>;
  empty: string;
  privateText?: string;
}) {
  if (!part) return <span className="text-muted">{empty}</span>;
  if ("value" in part) return <span className="text-ink">{part.value}</span>;
  return <span className="text-muted italic">{part.withheld === "redacted" ? "Redacted" : privateText}</span>;
}

/** A post's key is long on some networks (AT-URIs): the start and the end say which. */
function shortId(id: string): string {
  return id.length > 28 ? `${id.slice(0, 14)}…${id.slice(-10)}` : id;
}
