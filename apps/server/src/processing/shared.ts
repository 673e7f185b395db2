import type {
  AcknowledgementKind,
  AcknowledgementNetwork,
  ProcessingJobKind,
  ProcessingJobStatus,
} from "@curate/core";
import type { Logger } from "pino";
import type { Database } from "../db/index.ts";
import type { ExternalPlugins } from "../plugins/external/loader.ts";
import type { SecretSource } from "../plugins/placeholders.ts";
import type { PluginRegistry } from "../plugins/registry.ts";
import type { Telemetry } from "../telemetry/telemetry.ts";
import type { Reservation } from "./throttle.ts";

/**
 * What the processing room's parts share — the runner, its steps (distribution, retraction, acknowledgement), the
 * engine and dry runs: one home, so none of them imports another for a type (the lint's cycle rule counts type
 * imports too).
 */

/** What a step error looks like on the step row and in the API. */
export interface StepError {
  message: string;
  code: string;
  retryable: boolean;
  /** How long the service asked to wait (rate limits, spent budgets). */
  retryAfterMs?: number;
  /** The feed's channel this step is held for (refused credentials, or held while that channel is paused). */
  channelKey?: string;
}

/** The step's plugin name: what the processing screens show, and the throttle's name for the bots' slots. */
export const ACKNOWLEDGE_STEP = "acknowledge";

/** Where a step publishes: its own distributor, its branch's, an acknowledgement's network, or nowhere. */
export function stepChannel(
  plugin: string,
  type: string,
  branchPlugin: string | null | undefined,
  network?: string | null,
): string | null {
  if (plugin === ACKNOWLEDGE_STEP) return network ?? null;
  if (type === "distribution" || type === "retraction") return plugin;
  return branchPlugin ?? null;
}

/** What an acknowledgement step is given: where to reply, on which network, and the exact text. */
export interface AcknowledgementInput {
  network: AcknowledgementNetwork;
  kind: AcknowledgementKind;
  /** The curator's post, as its network names it (an X id, an AT-URI, a status URI, `chat:message`). */
  replyTo: string;
  text: string;
}

/** What a bot answered when its reply was posted. */
export interface SentReply {
  id: string;
  url?: string | null;
}

/** Posts the bots' replies (processing/acknowledgement-sender.ts). */
export interface AcknowledgementSender {
  send(input: AcknowledgementInput, idempotencyKey: string, signal: AbortSignal): Promise<SentReply>;
}

export interface AcknowledgementSettings {
  sender: AcknowledgementSender;
  /** The shortest time between two replies of one network's bot (ACK_MIN_INTERVAL_MS). */
  minIntervalMs: number;
  /** Replies one feed may have the bots send an hour (ACKS_PER_FEED_PER_HOUR). */
  perFeedPerHour: number;
}

export interface RunnerDeps {
  db: Database;
  registry: PluginRegistry;
  /** Registered (third-party) plugins, run isolated; absent, only built-ins run. */
  externalPlugins?: ExternalPlugins;
  /** Fills `{{NAME}}` placeholders for a feed: its own secrets first, then the server's. */
  secretsFor(feedId: string): Promise<SecretSource>;
  logger: Logger;
  /** Attempts a job gets before retryable failures count as final. */
  maxAttempts: number;
  /** How long one step may run. */
  stepTimeoutMs: number;
  /** Branches of one job running at once. */
  branchConcurrency: number;
  /** How long a claim holds before another worker may take the job over (a worker that died). */
  leaseMs: number;
  /** The bots that reply on the post's network; absent, acknowledgement steps fail saying so. */
  acknowledgements?: AcknowledgementSettings;
  /** Where jobs and steps are counted and traced: the composition's telemetry. */
  telemetry: Telemetry;
  /**
   * The share of each channel's own interval between sends that is kept (1, the default: all of it). Below 1 only
   * in test servers (CHANNEL_PACING_PERCENT), whose fakes have no rate limit to respect.
   */
  channelPacing?: number;
  /** The clock scheduled channels plan and take their slots by (decision 0036): the worker's (tests move it). */
  scheduleClock?: () => number;
}

/** Send slots a job holds, by step id: a job waiting for its turn on a channel keeps its place in the line. */
export type Reservations = Record<string, Reservation>;

export type RunResult =
  | { kind: "skipped"; reason: "finished" | "held" | "missing" }
  | { kind: "finished"; status: ProcessingJobStatus; jobKind: string }
  | {
      kind: "retry-later";
      reason: string;
      attempts: number;
      retryAfterMs: number;
      /** Distributions waiting for their channel's turn; such a wait does not use up an attempt. */
      reservations: Reservations;
    }
  /** Back in the outbox until a scheduled channel's slot (decision 0036); `until` is epoch milliseconds. */
  | { kind: "parked"; until: number };

/** What the runner does with a kind of job. */
export interface JobKindDefinition {
  /** Its steps: the feed's plan (transforms, then a branch per channel), a retraction's, or one acknowledgement. */
  runs: "plan" | "retraction" | "acknowledgement";
  /** It publishes the post, so it is cancelled once the post is no longer approved in the feed. */
  publishesPost: boolean;
  /** It reaches the channels (a dry run only renders): it is counted in metrics, held by and pausing channels. */
  sends: boolean;
}

/** One line per job kind: a new kind does not compile until the runner knows what to do with it. */
export const JOB_KINDS: { readonly [Kind in ProcessingJobKind]: JobKindDefinition } = {
  approval: { runs: "plan", publishesPost: true, sends: true },
  retry: { runs: "plan", publishesPost: true, sends: true },
  reprocess: { runs: "plan", publishesPost: true, sends: true },
  tweak: { runs: "plan", publishesPost: true, sends: true },
  republish: { runs: "plan", publishesPost: true, sends: true },
  recap: { runs: "plan", publishesPost: false, sends: true },
  dry_run: { runs: "plan", publishesPost: false, sends: false },
  retraction: { runs: "retraction", publishesPost: false, sends: true },
  acknowledgement: { runs: "acknowledgement", publishesPost: false, sends: true },
};
