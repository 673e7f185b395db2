import type { RssReaderItem } from "@curate/core";
import type { Logger } from "pino";
import type { z } from "zod";

/**
 * A step's failure, said so that the owner knows what to fix. `retryable` is true only where asking again later
 * can help (rate limits, outages, timeouts): the engine backs off and retries those, and no others.
 */
export class PluginError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  /** How long the service asked to wait before trying again, when it said (rate limits). */
  readonly retryAfterMs?: number;
  constructor(
    message: string,
    options: { code: string; retryable?: boolean; retryAfterMs?: number; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = "PluginError";
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Error codes that mean the channel's credentials were refused (revoked or wrong token, missing permission): no
 * retry can help until the owner fixes them.
 */
export const CREDENTIALS_REJECTED = "CREDENTIALS_REJECTED";

/** What a plugin is given besides its input and config. */
export interface PluginContext {
  /** Aborts when the step's time is up or the worker stops. */
  signal: AbortSignal;
  logger: Logger;
  feedId: string;
  submissionId: string | null;
  jobId: string;
  /**
   * Stable for one publication of a submission in a feed through one distributor branch: the same across
   * resumes and retries, new only for a deliberate new publication (reprocess, tweak). Null for transforms.
   */
  idempotencyKey: string | null;
  /**
   * The publication of this distributor branch that is live now (the newest still published in the ledger for the
   * branch's key; for a recap, what its earlier run published), whatever job runs: a channel that can edit a
   * publication renders its edit (`RenderedDistribution.edits`); otherwise the runner leaves it as it is and sends
   * nothing. Absent when nothing is live, for "publish again as a new post", and for transforms.
   */
  replay?: ReplayOf;
}

/** The live publication a re-run edits: the receipt its send stored, in which job, and its ledger entry. */
export interface ReplayOf {
  jobId: string;
  receipt: DistributionReceipt;
  /** The ledger entry (absent for a recap's earlier run, found through its retries). */
  publicationId?: string;
}

interface PluginBase<Config> {
  /** The built-in short name (`rss`) or the external plugin's registered name. */
  name: string;
  configSchema: z.ZodType<Config>;
  /** Quick and local: no I/O and no side effect, so running it twice changes nothing (templates). */
  local?: boolean;
}

export interface TransformerPlugin<Config = unknown> extends PluginBase<Config> {
  type: "transformer";
  transform(input: unknown, config: Config, context: PluginContext): Promise<unknown>;
}

/** What a distributor published, stored as its step's output: the reference says where it went. */
export interface DistributionReceipt {
  reference?: { kind: string; id?: string; url?: string };
  [key: string]: unknown;
}

/**
 * What a distributor would send, rendered without sending: the channel's own request (Telegram's sendMessage
 * parameters, a Discord webhook body, Notion page properties, …) with credentials left out. Dry runs show it; the
 * send uses exactly it.
 */
export interface RenderedDistribution {
  /** A short name of the request (`sendMessage`, `pages.create`, `insert`, …). */
  action: string;
  /** The request's content as the channel receives it, credentials left out. */
  request: unknown;
  /**
   * What readers are shown of it, where that is not the request itself (an RSS item, as feed readers list it):
   * made by the function that writes the published copy, so a preview shows what a send publishes.
   */
  shown?: RssReaderItem;
  /**
   * True when the request changes the publication in `context.replay` (an edit, an upsert, a replaced item, an
   * update delivery) instead of making a new one. A re-run whose render is not an edit is not sent.
   */
  edits?: boolean;
}

/**
 * One rate a channel imposes: at most one send per `intervalMs` for everything sharing `key` (a chat, a webhook,
 * an integration token). The engine hashes the key, so it may hold a credential.
 */
export interface ThrottleRule {
  key: string;
  intervalMs: number;
}

export interface DistributorPlugin<Config = unknown> extends PluginBase<Config> {
  type: "distributor";
  /**
   * The channel's rate limits for this (hydrated) config. The engine spaces sends by them across all workers, so a
   * bulk approval publishes steadily instead of in a storm of 429s.
   */
  throttle?(config: Config): ThrottleRule[];
  /** Pure: the request this input and config make. No I/O beyond reading this server's own state. */
  render(input: unknown, config: Config, context: PluginContext): Promise<RenderedDistribution>;
  /** Sends what `render` made; returns where it went. */
  send(rendered: RenderedDistribution, config: Config, context: PluginContext): Promise<DistributionReceipt>;
  /**
   * Takes a publication back (a retraction): deletes the message, archives the page, removes the item. `receipt`
   * is what `send` returned for it. A publication already gone counts as retracted; a channel that cannot delete
   * (a post on chain) answers `{ retracted: false, reason }`; a failure throws a `PluginError` like a send's.
   * Absent, the channel cannot retract.
   */
  retract?(receipt: DistributionReceipt, config: Config, context: PluginContext): Promise<RetractionOutcome>;
}

/** What became of a publication a retraction asked its channel to remove. */
export type RetractionOutcome =
  | { retracted: true; alreadyGone?: boolean; [key: string]: unknown }
  | { retracted: false; reason: string };

/** Any plugin, whatever its config type (the runner validates configs with each plugin's own schema). */
export type Plugin = TransformerPlugin<unknown> | DistributorPlugin<unknown>;
