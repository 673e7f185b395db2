import { formatWait, type QueueHealth as Health } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ClockIcon } from "lucide-react";
import { Alert } from "#web/components/ui/alert";
import { useNow } from "#web/components/ui/relative-time";
import { Skeleton } from "#web/components/ui/skeleton";
import { cn } from "#web/lib/cn";
import { formatDateTime } from "#web/lib/format";
import { oldestWaitSeconds, type QueueTone, queueHealthQueryOptions, queueTone } from "../api";

const TONE_STYLES: Record<QueueTone, string> = {
  empty: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  overdue: "bg-amber-50 text-amber-900 ring-amber-300",
  unknown: "bg-zinc-100 text-zinc-700 ring-zinc-200",
};

const TONE_LABELS: Record<QueueTone, string> = {
  empty: "Queue clear",
  ok: "Within service level",
  overdue: "Past service level",
  unknown: "No service level",
};

interface QueueHealthProps {
  feedId: string;
  /** One line for the feed header; the full panel on the curation tab. */
  compact?: boolean;
}

/** How long the feed's queue waits: oldest pending post, median time to a decision, the service level. */
export function QueueHealth({ feedId, compact = false }: QueueHealthProps) {
  const { data, status, error } = useQuery(queueHealthQueryOptions(feedId));
  const now = useNow();
  if (status === "pending") {
    return <Skeleton className={compact ? "h-6 w-72" : "h-28 w-full"} aria-label="Loading queue health" />;
  }
  if (status === "error") {
    return compact ? null : <Alert>Failed to load queue health: {error.message}</Alert>;
  }
  return compact ? <QueueLine health={data} now={now} /> : <QueuePanel health={data} now={now} />;
}

function ToneBadge({ tone }: { tone: QueueTone }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1",
        TONE_STYLES[tone],
      )}
    >
      {TONE_LABELS[tone]}
    </span>
  );
}

function QueueLine({ health, now }: { health: Health; now: number }) {
  const tone = queueTone(health, now);
  const wait = oldestWaitSeconds(health, now);
  return (
    <p
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted"
      data-testid="queue-health-line"
    >
      <ClockIcon aria-hidden="true" className="size-4" />
      <ToneBadge tone={tone} />
      <span>
        <span className="font-medium text-ink tabular-nums">{health.pendingCount}</span> pending
      </span>
      {wait !== null ? (
        <span>
          oldest waiting <span className="font-medium text-ink">{formatWait(wait)}</span>
        </span>
      ) : null}
      {health.medianDecisionSeconds !== null ? (
        <span>
          median decision{" "}
          <span className="font-medium text-ink">{formatWait(health.medianDecisionSeconds)}</span>
        </span>
      ) : null}
      {health.decideWithinHours ? <span>aims for {health.decideWithinHours} h</span> : null}
    </p>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="text-lg font-semibold text-ink tabular-nums">{value}</dd>
      {hint ? <dd className="text-xs text-muted">{hint}</dd> : null}
    </div>
  );
}

function QueuePanel({ health, now }: { health: Health; now: number }) {
  const tone = queueTone(health, now);
  const wait = oldestWaitSeconds(health, now);
  return (
    <div className="flex flex-col gap-3" data-testid="queue-health">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold text-ink">Queue health</h3>
        <ToneBadge tone={tone} />
      </div>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Stat label="Pending" value={String(health.pendingCount)} />
        <Stat
          label="Oldest waiting"
          value={wait === null ? "—" : formatWait(wait)}
          hint={
            health.oldestPendingSubmissionId && tone === "overdue"
              ? `${health.overdueCount >= 1000 ? "1000+" : health.overdueCount} past the service level`
              : undefined
          }
        />
        <Stat
          label="Median time to decision"
          value={health.medianDecisionSeconds === null ? "—" : formatWait(health.medianDecisionSeconds)}
          hint={
            health.medianAsOf
              ? `${health.decisionsSampled} decisions, 30 days · as of ${formatDateTime(health.medianAsOf)}`
              : "Not computed yet"
          }
        />
        <Stat
          label="Service level"
          value={health.decideWithinHours ? `${health.decideWithinHours} h` : "None"}
          hint={health.decideWithinHours ? "decide within" : "set one in the feed settings"}
        />
      </dl>
      {health.oldestPendingSubmissionId ? (
        <Link
          to="/submission/$submissionId"
          params={{ submissionId: health.oldestPendingSubmissionId }}
          className="self-start text-sm font-medium text-accent underline-offset-4 hover:underline"
        >
          Open the oldest pending post
        </Link>
      ) : null}
    </div>
  );
}
