import { ALERT_KIND_LABELS, type OperationsLogCheck, type OperationsOverview } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Alert } from "#web/components/ui/alert";
import { Badge } from "#web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { RelativeTime, useNow } from "#web/components/ui/relative-time";
import { SectionHeader } from "#web/components/ui/section-header";
import { Skeleton } from "#web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table";
import { ApiError } from "#web/lib/api";
import { operationsOverviewQueryOptions } from "../api";
import { formatRate, formatSeconds, isHighRate, sourceLabel, untilText } from "../format";

/** The Operations page (super admins): how the instance runs, read again every 15 seconds. */
export function OperationsPage() {
  const overview = useQuery(operationsOverviewQueryOptions());
  return (
    <section aria-labelledby="operations-title" className="flex flex-col gap-6">
      <title>Operations · Curate</title>
      <SectionHeader
        as="h1"
        id="operations-title"
        title="Operations"
        description={
          overview.data ? (
            <>
              Workers, queues, intake and alerts of this instance. Updated{" "}
              <RelativeTime date={overview.data.generatedAt} />.
            </>
          ) : (
            "Workers, queues, intake and alerts of this instance."
          )
        }
      />
      {overview.isError ? (
        <Alert layout="block" title="Operations could not be loaded">
          {overview.error instanceof ApiError && overview.error.status === 403
            ? "Only super admins can see the Operations page."
            : overview.error instanceof ApiError && overview.error.status === 401
              ? "Sign in as a super admin to see the Operations page."
              : overview.error.message}
        </Alert>
      ) : overview.isPending ? (
        <div className="grid gap-4" role="status" aria-label="Loading operations">
          <Skeleton className="h-24" />
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : (
        <Overview data={overview.data} />
      )}
    </section>
  );
}

function Overview({ data }: { data: OperationsOverview }) {
  return (
    <div className="flex flex-col gap-6">
      <OpenAlerts alerts={data.alerts} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Workers workers={data.workers} />
        <Queues queues={data.queues} />
      </div>
      <FailureRates failureRates={data.failureRates} />
      <IntakeSources sources={data.intakeSources} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Budgets budgets={data.budgets} />
        <LogCheck check={data.logCheck} />
      </div>
      <PausedChannels paused={data.pausedChannels} />
      <RecentErrors errors={data.recentErrors} />
    </div>
  );
}

/** A titled card holding a table, or a line saying there is nothing to show. */
function Panel({
  id,
  title,
  description,
  empty,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={`${id}-title`} role="region" data-testid={id}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>{title}</CardTitle>
        {description ? <p className="text-sm text-muted">{description}</p> : null}
      </CardHeader>
      <CardContent className="overflow-x-auto">
        {empty ? <p className="text-sm text-muted">{empty}</p> : children}
      </CardContent>
    </Card>
  );
}

const when = (date: string | null, otherwise = "never") =>
  date ? <RelativeTime date={date} title={date} /> : <span className="text-muted">{otherwise}</span>;

/** A time still to come, counting down while the page stays open: "in 12 min", or "due" once it has passed. */
function Until({ date }: { date: string }) {
  const now = useNow();
  return (
    <time dateTime={date} title={date}>
      {untilText(date, now)}
    </time>
  );
}

function OpenAlerts({ alerts }: { alerts: OperationsOverview["alerts"] }) {
  const targets = alerts.targets.length ? alerts.targets.join(" and ") : null;
  return (
    <Panel
      id="operations-alerts"
      title="Alerts"
      description={
        targets
          ? `Open incidents; the admins are told through the ${targets} when one opens and when it resolves.`
          : "Open incidents. No webhook or Telegram chat is configured, so alerts show here only."
      }
      empty={alerts.open.length ? null : "No open alerts: every threshold is met."}
    >
      <ul className="flex flex-col gap-2">
        {alerts.open.map((alert) => (
          <li key={`${alert.kind}:${alert.subject}`}>
            <Alert variant="warning" title={ALERT_KIND_LABELS[alert.kind]}>
              {alert.message} Open since <RelativeTime date={alert.openedAt} />.
            </Alert>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function Workers({ workers }: { workers: OperationsOverview["workers"] }) {
  return (
    <Panel
      id="operations-workers"
      title="Workers"
      description="Processes running jobs and intake, with their last heartbeat."
      empty={workers.length ? null : "No worker is running: jobs and intake wait until one starts."}
    >
      <Table aria-label="Workers">
        <TableHeader>
          <TableRow>
            <TableHead>Worker</TableHead>
            <TableHead>State</TableHead>
            <TableHead>Jobs</TableHead>
            <TableHead>Heartbeat</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {workers.map((worker) => (
            <TableRow key={worker.id}>
              <TableCell>
                <div className="font-medium">
                  {worker.host} · pid {worker.pid}
                </div>
                <div className="text-xs text-muted">
                  {worker.role} · {worker.version} · started <RelativeTime date={worker.startedAt} />
                </div>
              </TableCell>
              <TableCell>
                {worker.live ? <Badge tone="green">live</Badge> : <Badge tone="red">no heartbeat</Badge>}
              </TableCell>
              <TableCell>
                {worker.running} / {worker.concurrency}
              </TableCell>
              <TableCell>{when(worker.lastSeenAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Panel>
  );
}

function Queues({ queues }: { queues: OperationsOverview["queues"] }) {
  return (
    <Panel
      id="operations-queues"
      title="Queues"
      description="Jobs waiting and running, by kind, and how long the oldest has waited."
      empty={queues.length ? null : "Every queue is empty."}
    >
      <Table aria-label="Queues">
        <TableHeader>
          <TableRow>
            <TableHead>Kind</TableHead>
            <TableHead>Waiting</TableHead>
            <TableHead>Running</TableHead>
            <TableHead>Oldest waiting</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {queues.map((queue) => (
            <TableRow key={queue.kind}>
              <TableCell className="font-medium">{queue.kind}</TableCell>
              <TableCell>{queue.pending}</TableCell>
              <TableCell>{queue.processing}</TableCell>
              <TableCell>
                {queue.oldestAgeSeconds === null ? "—" : formatSeconds(queue.oldestAgeSeconds)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Panel>
  );
}

function FailureRates({ failureRates }: { failureRates: OperationsOverview["failureRates"] }) {
  return (
    <Panel
      id="operations-failures"
      title="Failure rates"
      description={`Steps that ended in the last ${failureRates.windowMinutes} minutes, by plugin and channel.`}
      empty={failureRates.rows.length ? null : "No step ended in this window."}
    >
      <Table aria-label="Failure rates">
        <TableHeader>
          <TableRow>
            <TableHead>Plugin</TableHead>
            <TableHead>Channel</TableHead>
            <TableHead>Steps</TableHead>
            <TableHead>Failed</TableHead>
            <TableHead>Rate</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {failureRates.rows.map((row) => (
            <TableRow key={`${row.plugin}:${row.channel}`}>
              <TableCell className="font-medium">{row.plugin}</TableCell>
              <TableCell>{row.channel}</TableCell>
              <TableCell>{row.total}</TableCell>
              <TableCell>{row.failed}</TableCell>
              <TableCell>
                <Badge tone={isHighRate(row) ? "red" : row.failed ? "amber" : "green"}>
                  {formatRate(row.rate)}
                </Badge>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Panel>
  );
}

function IntakeSources({ sources }: { sources: OperationsOverview["intakeSources"] }) {
  return (
    <Panel
      id="operations-intake"
      title="Intake sources"
      description="The bot's mentions on each network and every feed search: where each stands and when it polls next."
      empty={sources.length ? null : "No source has been polled yet."}
    >
      <Table aria-label="Intake sources">
        <TableHeader>
          <TableRow>
            <TableHead>Source</TableHead>
            <TableHead>Cursor</TableHead>
            <TableHead>Last success</TableHead>
            <TableHead>Next poll</TableHead>
            <TableHead>Last error</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {sources.map((source) => (
            <TableRow key={source.sourceKey}>
              <TableCell>
                <div className="font-medium">{sourceLabel(source.sourceKey)}</div>
                <div className="text-xs text-muted">
                  {source.network}
                  {source.silentMinutes > 0 ? (
                    <>
                      {" "}
                      · <Badge tone="amber">silent {formatSeconds(source.silentMinutes * 60)}</Badge>
                    </>
                  ) : null}
                </div>
              </TableCell>
              <TableCell className="max-w-40 truncate font-mono text-xs" title={source.cursor ?? undefined}>
                {source.cursor || "—"}
              </TableCell>
              <TableCell>{when(source.lastSuccessAt)}</TableCell>
              <TableCell>{source.nextPollAt ? <Until date={source.nextPollAt} /> : "—"}</TableCell>
              <TableCell className="min-w-56 max-w-72 text-xs">
                {source.lastError ? (
                  <span className="text-red-800">
                    {source.lastError} ({when(source.lastErrorAt)})
                  </span>
                ) : (
                  "—"
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Panel>
  );
}

function Budgets({ budgets }: { budgets: OperationsOverview["budgets"] }) {
  return (
    <Panel
      id="operations-budgets"
      title="Budgets"
      description="Upstream calls of this hour's window."
      empty={null}
    >
      <ul className="flex flex-col gap-3">
        {budgets.map((budget) => (
          <li key={budget.name} className="flex flex-col gap-1">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="font-medium">{budget.name === "x_api" ? "X API" : budget.name}</span>
              <span>
                {budget.used} of {budget.limit} used, {budget.left} left
              </span>
            </div>
            <div
              className="h-2 overflow-hidden rounded-full bg-zinc-100"
              role="meter"
              aria-label={`${budget.name === "x_api" ? "X API" : budget.name} budget used`}
              aria-valuemin={0}
              aria-valuemax={budget.limit}
              aria-valuenow={budget.used}
            >
              <div
                className={budget.left === 0 ? "h-full bg-red-600" : "h-full bg-accent"}
                style={{ width: `${Math.min(100, (budget.used / Math.max(1, budget.limit)) * 100)}%` }}
              />
            </div>
            <span className="text-xs text-muted">
              A new window starts <Until date={budget.windowEnd} />.
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function LogCheck({ check }: { check: OperationsLogCheck }) {
  return (
    <Panel
      id="operations-log-check"
      title="Moderation log self-check"
      description="Whether every feed's hash-chained moderation log still verifies."
      empty={null}
    >
      {!check.available ? (
        <p className="text-sm text-muted">
          Not available: this instance runs no self-check of its moderation log.
        </p>
      ) : check.state === "pending" ? (
        <p className="text-sm text-muted">{check.message ?? "No check has finished yet."}</p>
      ) : (
        <div className="flex flex-col gap-2 text-sm">
          <div className="flex items-center gap-2">
            {check.state === "ok" ? (
              <Badge tone="green">chain intact</Badge>
            ) : (
              <Badge tone="red">chain broken</Badge>
            )}
            {check.checkedAt ? (
              <span className="text-muted">
                checked <RelativeTime date={check.checkedAt} />
              </span>
            ) : null}
          </div>
          {check.brokenFeeds.length ? <p>Broken in: {check.brokenFeeds.join(", ")}</p> : null}
          {check.message ? <p className="text-muted">{check.message}</p> : null}
        </div>
      )}
    </Panel>
  );
}

function PausedChannels({ paused }: { paused: OperationsOverview["pausedChannels"] }) {
  return (
    <Panel
      id="operations-paused"
      title="Paused channels"
      description="Destinations that refused a feed's credentials; their publications wait until an owner resumes them."
      empty={paused.length ? null : "No channel is paused."}
    >
      <Table aria-label="Paused channels">
        <TableHeader>
          <TableRow>
            <TableHead>Feed</TableHead>
            <TableHead>Channel</TableHead>
            <TableHead>Why</TableHead>
            <TableHead>Since</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {paused.map((pause) => (
            <TableRow key={`${pause.feedId}:${pause.pluginName}:${pause.pausedAt}`}>
              <TableCell>
                <Link
                  to="/feed/$feedId/processing"
                  params={{ feedId: pause.feedId }}
                  className="text-accent underline"
                >
                  {pause.feedId}
                </Link>
              </TableCell>
              <TableCell>{pause.stepName ?? pause.pluginName}</TableCell>
              <TableCell className="min-w-64 max-w-96 text-xs">{pause.message}</TableCell>
              <TableCell>{when(pause.pausedAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Panel>
  );
}

function RecentErrors({ errors }: { errors: OperationsOverview["recentErrors"] }) {
  return (
    <Panel
      id="operations-errors"
      title="Recent errors"
      description="The latest failed steps of the last 24 hours; each links to its job."
      empty={errors.length ? null : "No step failed in the last 24 hours."}
    >
      <Table aria-label="Recent errors">
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Feed</TableHead>
            <TableHead>Step</TableHead>
            <TableHead>Error</TableHead>
            <TableHead>Job</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {errors.map((error) => (
            <TableRow key={error.stepId}>
              <TableCell>{when(error.at)}</TableCell>
              <TableCell>{error.feedId}</TableCell>
              <TableCell>{error.stepName ?? error.plugin}</TableCell>
              <TableCell className="min-w-64 max-w-96 text-xs">
                {error.code ? <span className="font-mono">{error.code}: </span> : null}
                {error.message}
              </TableCell>
              <TableCell>
                {error.submissionId ? (
                  <Link
                    to="/submission/$submissionId"
                    params={{ submissionId: error.submissionId }}
                    className="font-mono text-xs text-accent underline"
                    aria-label={`Job ${error.jobId}`}
                  >
                    {error.jobId.slice(0, 8)}
                  </Link>
                ) : (
                  <Link
                    to="/feed/$feedId/processing"
                    params={{ feedId: error.feedId }}
                    search={{ failures: "recent" }}
                    className="font-mono text-xs text-accent underline"
                    aria-label={`Job ${error.jobId}`}
                  >
                    {error.jobId.slice(0, 8)}
                  </Link>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Panel>
  );
}
