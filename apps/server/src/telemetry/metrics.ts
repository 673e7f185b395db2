import { builtinPluginName, findBuiltinPlugin, PLATFORMS, PROCESSING_JOB_KINDS } from "@curate/core";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * The instruments of one composition (decision 0028): what its app and worker did — requests served, jobs and steps
 * run, intake polls — kept in a registry of its own, so two apps in one process (tests, benchmarks) never see each
 * other's series. Gauges read from the database at scrape time (queues, budgets, workers) are added per scrape by
 * `telemetry/scrape.ts`. Every label value comes from a closed set: route templates, job kinds and statuses, built-in
 * plugin names (any registered plugin is `external`), networks; never a raw path, an id or a feed's name.
 */
export interface Metrics {
  registry: Registry;
  /** Adds process metrics (CPU, memory, event loop, handles) at the first scrape: a process never scraped pays nothing. */
  startProcessMetrics(): void;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  countFinishedJob(kind: string, status: string): void;
  observeStep(plugin: string, channel: string | null, outcome: StepOutcome, seconds: number): void;
  /** One poll of an intake source: the posts it read (with their age) or the error it met. */
  observeIntakePoll(network: string, poll: { postedAt: Date[]; failed: boolean; at: Date }): void;
}

export type StepOutcome = "success" | "failed" | "retry";

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STEP_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const LAG_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const httpDuration = new Histogram({
    name: "curate_http_request_duration_seconds",
    help: "HTTP requests by route template, method and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const jobsFinished = new Counter({
    name: "curate_jobs_finished_total",
    help: "Processing jobs this process ran to an end, by kind and final status",
    labelNames: ["kind", "status"] as const,
    registers,
  });
  const stepDuration = new Histogram({
    name: "curate_step_duration_seconds",
    help: "Pipeline steps this process ran, by plugin (registered plugins as external), channel and outcome",
    labelNames: ["plugin", "channel", "outcome"] as const,
    buckets: STEP_BUCKETS,
    registers,
  });
  const intakeItems = new Counter({
    name: "curate_intake_items_total",
    help: "Posts intake read, by network",
    labelNames: ["network"] as const,
    registers,
  });
  const intakeErrors = new Counter({
    name: "curate_intake_errors_total",
    help: "Intake polls that failed, by network",
    labelNames: ["network"] as const,
    registers,
  });
  const intakeLag = new Histogram({
    name: "curate_intake_lag_seconds",
    help: "Time from a post's publication on its network to intake reading it, by network",
    labelNames: ["network"] as const,
    buckets: LAG_BUCKETS,
    registers,
  });

  let processMetrics = false;
  return {
    registry,
    startProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
    observeRequest(method, route, status, seconds) {
      httpDuration.observe({ method: method.toUpperCase(), route, status: String(status) }, seconds);
    },
    countFinishedJob(kind, status) {
      jobsFinished.inc({ kind: kindLabel(kind), status });
    },
    observeStep(plugin, channel, outcome, seconds) {
      stepDuration.observe({ plugin: pluginLabel(plugin), channel: channelLabel(channel), outcome }, seconds);
    },
    observeIntakePoll(network, poll) {
      const label = { network: networkLabel(network) };
      if (poll.failed) intakeErrors.inc(label);
      if (poll.postedAt.length) intakeItems.inc(label, poll.postedAt.length);
      for (const postedAt of poll.postedAt) {
        intakeLag.observe(label, Math.max(0, (poll.at.getTime() - postedAt.getTime()) / 1000));
      }
    },
  };
}

const JOB_KINDS: ReadonlySet<string> = new Set(PROCESSING_JOB_KINDS);
/** The networks intake reads, and `test` for the test posts of development servers. */
const NETWORKS: ReadonlySet<string> = new Set([...PLATFORMS, "test"]);

/** A job kind or status as a label: anything unexpected is `other`, so a label never grows with the data. */
const kindLabel = (kind: string) => (JOB_KINDS.has(kind) ? kind : "other");

/** A plugin as a label: a built-in by its canonical name, any other plugin `external`. */
export function pluginLabel(plugin: string): string {
  const builtin = findBuiltinPlugin(plugin);
  return builtin ? `@curate/${builtin.name}` : "external";
}

/** A step's channel as a label: the built-in distributor or network it publishes to, `external`, or `none`. */
export function channelLabel(channel: string | null | undefined): string {
  if (!channel) return "none";
  if (NETWORKS.has(channel)) return channel;
  return builtinPluginName(channel) ?? "external";
}

export function networkLabel(network: string): string {
  return NETWORKS.has(network) ? network : "other";
}
